package io.dlqdesk.testsupport;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@RealInfrastructure
class RealInfrastructureIT {

    @Test
    void eachTestClassGetsItsOwnEmptyDatabase(TestDatabase database, DatabaseServer server) throws SQLException {
        assertThat(database.name()).startsWith("it_realinfrastructureit_");

        TestDatabase other = server.createFreshDatabase("it_other_class");
        assertThat(other.jdbcUrl()).isNotEqualTo(database.jdbcUrl());
        try (Connection connection = connect(other); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE leftover (id INT)");
        }
        assertThat(tableCount(server.createFreshDatabase("it_other_class"))).isZero();
    }

    private static int tableCount(TestDatabase database) throws SQLException {
        try (Connection connection = connect(database); Statement statement = connection.createStatement();
             ResultSet tables = statement.executeQuery("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE()")) {
            tables.next();
            return tables.getInt(1);
        }
    }

    @Test
    void theDatabaseCanBeStoppedAndStartedAgainKeepingItsData(TestDatabase database, DatabaseServer server) throws SQLException {
        Assumptions.assumeTrue(server.restartable(), () -> server.description() + " cannot be restarted by tests");
        try (Connection connection = connect(database); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE kept (id INT PRIMARY KEY)");
            statement.execute("INSERT INTO kept VALUES (7)");
        }

        server.stop();
        try {
            assertThatThrownBy(() -> connect(database).close()).isInstanceOf(SQLException.class);
        } finally {
            server.start();
        }

        try (Connection connection = connect(database); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT id FROM kept")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getInt(1)).isEqualTo(7);
        }
    }

    @Test
    void theBrokerCanBeStoppedAndStartedAgainKeepingItsRecords(KafkaBroker broker) throws Exception {
        Assumptions.assumeTrue(broker.restartable(), () -> broker.description() + " cannot be restarted by tests");
        String topic = "it-restart-" + System.nanoTime();
        send(broker, topic, "before");

        broker.stop();
        try (KafkaProducer<String, String> producer = producer(broker, 2_000)) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, "while-down")).get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);
        } finally {
            broker.start();
        }

        send(broker, topic, "after");
        assertThat(readAll(broker, topic, 2)).containsExactly("before", "after");
    }

    @Test
    void addressesAreLoopbackForServersWeStart(TestInfrastructure infrastructure) {
        if (infrastructure.broker() instanceof InProcessKraftBroker broker) {
            assertThat(broker.bootstrapServers()).startsWith("127.0.0.1:");
        }
        if (infrastructure.database() instanceof EmbeddedMariaDb db) {
            assertThat(db.jdbcUrl("x")).startsWith("jdbc:mysql://127.0.0.1:");
        }
        assertThat(infrastructure.broker().bootstrapServers()).isNotBlank();
    }

    private static Connection connect(TestDatabase database) throws SQLException {
        return DriverManager.getConnection(database.jdbcUrl(), database.username(), database.password());
    }

    private static KafkaProducer<String, String> producer(KafkaBroker broker, int deliveryTimeoutMs) {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.MAX_BLOCK_MS_CONFIG, deliveryTimeoutMs,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, deliveryTimeoutMs,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, deliveryTimeoutMs,
                ProducerConfig.LINGER_MS_CONFIG, 0),
                new StringSerializer(), new StringSerializer());
    }

    private static void send(KafkaBroker broker, String topic, String value) throws Exception {
        try (KafkaProducer<String, String> producer = producer(broker, 30_000)) {
            producer.send(new ProducerRecord<>(topic, 0, null, value)).get(30, TimeUnit.SECONDS);
        }
    }

    private static List<String> readAll(KafkaBroker broker, String topic, int expected) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
                new StringDeserializer(), new StringDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            List<String> values = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            return values;
        }
    }
}
