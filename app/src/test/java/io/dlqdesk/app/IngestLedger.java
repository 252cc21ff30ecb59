package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** What ingest tests look at: DLQ topics and incidents in the event store (committed positions: {@link KafkaBroker#committedOffset}). */
final class IngestLedger {

    private IngestLedger() {
    }

    static void createTopic(KafkaBroker broker, String topic, int partitions, Map<String, String> config) throws Exception {
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1).configs(config))).all().get(30, TimeUnit.SECONDS);
        }
    }

    static KafkaProducer<byte[], byte[]> producer(KafkaBroker broker, Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"));
        config.putAll(extra);
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** How many IncidentOpened events each failure's incident has in the event store. */
    static List<Integer> incidentsOpened(JdbcTemplate jdbc, List<FailureKey> keys) {
        return keys.stream().map(key -> jdbc.queryForObject(
                "SELECT COUNT(*) FROM domain_event_entry WHERE aggregate_identifier = ? AND payload_type LIKE '%.IncidentOpened'",
                Integer.class, IncidentId.of(key).value())).toList();
    }

}
