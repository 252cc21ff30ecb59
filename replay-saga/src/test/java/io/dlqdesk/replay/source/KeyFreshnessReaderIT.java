package io.dlqdesk.replay.source;

import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.KeyFreshness;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stale-key check on the real broker. Partition 0 holds, in order: the original (key k, value v1), a record of another
 * key, a newer value of k (v2), and the same v1 again. Partition 1 holds the original and then only a byte-identical copy of
 * it (a replay). The target group's committed offsets are set per case, as its consumer would have left them.
 */
@RealInfrastructure
class KeyFreshnessReaderIT {

    private static final byte[] KEY = "order-7".getBytes(StandardCharsets.UTF_8);
    private static final byte[] V1 = "{\"total\":10}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] V2 = "{\"total\":12}".getBytes(StandardCharsets.UTF_8);
    private static final String TOPIC = "freshness-" + System.nanoTime();

    private static KafkaBroker broker;

    @BeforeAll
    static void records(KafkaBroker kafka) throws Exception {
        broker = kafka;
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(TOPIC, 0, KEY, V1)).get();                                           // 0: the original
            producer.send(new ProducerRecord<>(TOPIC, 0, "order-8".getBytes(StandardCharsets.UTF_8), V2)).get();   // 1: another key
            producer.send(new ProducerRecord<>(TOPIC, 0, KEY, V2)).get();                                           // 2: newer state of k
            producer.send(new ProducerRecord<>(TOPIC, 0, KEY, V1)).get();                                           // 3: v1 again
            producer.send(new ProducerRecord<>(TOPIC, 1, KEY, V1)).get();                                           // 0: the original
            producer.send(new ProducerRecord<>(TOPIC, 1, KEY, V1)).get();                                           // 1: a replay of it
        }
    }

    @Test
    void aNewerValueOfTheKeyBeforeTheCommittedOffsetIsStaleNamingItsOffset() throws Exception {
        String group = committed(0, 3);
        KeyFreshness freshness = reader(100).check(original(0), KEY, V1, group);
        assertThat(freshness.state()).as(freshness.detail()).isEqualTo(KeyFreshness.State.STALE);
        assertThat(freshness.newerOffset()).isEqualTo(2);
    }

    @Test
    void aGroupThatHasNotProcessedTheNewerValueYetIsFresh() throws Exception {
        String group = committed(0, 2); // it processed the other key's record, not the newer value of k
        KeyFreshness freshness = reader(100).check(original(0), KEY, V1, group);
        assertThat(freshness.state()).as(freshness.detail()).isEqualTo(KeyFreshness.State.FRESH);
    }

    @Test
    void aByteIdenticalCopyOfTheOriginalIsNoNewerState() throws Exception {
        String group = committed(1, 2);
        KeyFreshness freshness = reader(100).check(original(1), KEY, V1, group);
        assertThat(freshness.state()).as(freshness.detail()).isEqualTo(KeyFreshness.State.FRESH);
    }

    @Test
    void aGroupWithoutACommittedOffsetHasProcessedNothingNewer() {
        KeyFreshness freshness = reader(100).check(original(0), KEY, V1, "never-committed-" + System.nanoTime());
        assertThat(freshness.state()).as(freshness.detail()).isEqualTo(KeyFreshness.State.FRESH);
    }

    @Test
    void moreRecordsToReadThanTheBoundIsUnknownNeverFresh() throws Exception {
        String group = committed(0, 3);
        KeyFreshness freshness = reader(1).check(original(0), KEY, V1, group);
        assertThat(freshness.state()).isEqualTo(KeyFreshness.State.UNKNOWN);
        assertThat(freshness.detail()).contains("max-records");
    }

    @Test
    void aTopicNotConfiguredOrARecordWithoutKeyIsNotChecked() throws Exception {
        String group = committed(0, 3);
        KafkaBroker kafka = broker;
        try (KeyFreshnessReader other = new KeyFreshnessReader(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new KeyFreshnessReader.Settings(Pattern.compile("payments"), 100, Duration.ofSeconds(10)))) {
            assertThat(other.check(original(0), KEY, V1, group).state()).isEqualTo(KeyFreshness.State.NOT_CHECKED);
        }
        assertThat(reader(100).check(original(0), null, V1, group).state()).isEqualTo(KeyFreshness.State.NOT_CHECKED);
    }

    private static RecordLocation original(int partition) {
        return new RecordLocation(TOPIC, partition, 0);
    }

    /** A new group whose committed offset on the partition is {@code offset}. */
    private static String committed(int partition, long offset) throws Exception {
        String group = "target-" + System.nanoTime();
        try (Admin admin = broker.admin()) {
            admin.alterConsumerGroupOffsets(group, Map.of(new TopicPartition(TOPIC, partition), new OffsetAndMetadata(offset)))
                    .all().get(30, TimeUnit.SECONDS);
        }
        return group;
    }

    private static KeyFreshnessReader reader(long maxRecords) {
        return new KeyFreshnessReader(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new KeyFreshnessReader.Settings(Pattern.compile(Pattern.quote(TOPIC)), maxRecords, Duration.ofSeconds(10)));
    }
}
