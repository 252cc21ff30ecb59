package io.dlqdesk.replay.source;

import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The reader against a real broker: every way a location can fail to hold the record, each told apart. */
@RealInfrastructure
class SourceRecordReaderIT {

    private static final String TOPIC = "reader-" + System.nanoTime();

    private static KafkaBroker broker;
    private static SourceRecordReader reader;

    @BeforeAll
    static void setUp(KafkaBroker kafka) throws Exception {
        broker = kafka;
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        reader = new SourceRecordReader(broker.bootstrapServers(), "reader-it", Duration.ofSeconds(10));
    }

    @Test
    void theRecordAtTheOffsetComesBackByteForByte() throws Exception {
        byte[] value = {(byte) 0xFF, 0x00, (byte) 0xC3, 0x28};
        RecordMetadata sent = send(new ProducerRecord<>(TOPIC, 1, 1_700_000_000_000L, new byte[] {1, 2}, value), false);
        SourceRead read = reader.read(new RecordLocation(TOPIC, 1, sent.offset()));
        assertThat(read).isInstanceOfSatisfying(SourceRead.Found.class, found -> {
            assertThat(found.atRequestedOffset()).isTrue();
            assertThat(found.record().value()).isEqualTo(value);
            assertThat(found.record().key()).isEqualTo(new byte[] {1, 2});
            assertThat(found.record().timestamp()).isEqualTo(1_700_000_000_000L);
        });
    }

    @Test
    void aMissingTopicIsToldAndNotCreated() throws Exception {
        String missing = "reader-missing-" + System.nanoTime();
        assertThat(reader.read(new RecordLocation(missing, 0, 0))).isInstanceOfSatisfying(SourceRead.NotThere.class,
                notThere -> assertThat(notThere.reason()).isEqualTo(SourceRead.Reason.TOPIC_MISSING));
        try (Admin admin = broker.admin()) {
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).doesNotContain(missing);
        }
    }

    @Test
    void aMissingPartitionAndAnOffsetAtTheEndAreTold() throws Exception {
        assertThat(reader.read(new RecordLocation(TOPIC, 7, 0))).isInstanceOfSatisfying(SourceRead.NotThere.class,
                notThere -> assertThat(notThere.reason()).isEqualTo(SourceRead.Reason.PARTITION_MISSING));
        RecordMetadata sent = send(new ProducerRecord<>(TOPIC, 0, null, new byte[] {9}), false);
        assertThat(reader.read(new RecordLocation(TOPIC, 0, sent.offset() + 1))).isInstanceOfSatisfying(SourceRead.NotThere.class,
                notThere -> assertThat(notThere.reason()).isEqualTo(SourceRead.Reason.AT_OR_AFTER_LOG_END));
    }

    /** Consumers are kept between reads; what one of them knew about a topic before it grew must not decide. */
    @Test
    void aPartitionAddedAfterTheReaderLookedIsFound() throws Exception {
        String growing = "reader-growing-" + System.nanoTime();
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(growing, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            RecordMetadata first = send(new ProducerRecord<>(growing, 0, null, new byte[] {1}), false);
            assertThat(reader.read(new RecordLocation(growing, 0, first.offset()))).isInstanceOf(SourceRead.Found.class);
            admin.createPartitions(java.util.Map.of(growing, org.apache.kafka.clients.admin.NewPartitions.increaseTo(2)))
                    .all().get(30, TimeUnit.SECONDS);
        }
        RecordMetadata second = send(new ProducerRecord<>(growing, 1, null, new byte[] {2}), false);

        assertThat(reader.read(new RecordLocation(growing, 1, second.offset()))).isInstanceOf(SourceRead.Found.class);
    }

    /** An aborted transaction leaves offsets no reader is given: the next committed record comes back, at another offset. */
    @Test
    void aGapAtTheOffsetReturnsTheNextRecordAndSaysSo() throws Exception {
        String topic = "reader-gap-" + System.nanoTime();
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        RecordMetadata aborted = send(new ProducerRecord<>(topic, 0, null, new byte[] {1}), true);
        // the abort marker reaches the partition shortly after abortTransaction() returns; until then the
        // offset is beyond the stable end
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(reader.read(new RecordLocation(topic, 0, aborted.offset())))
                .as("nothing committed after it yet").isInstanceOf(SourceRead.NothingReadable.class));
        RecordMetadata next = send(new ProducerRecord<>(topic, 0, null, new byte[] {2}), false);
        assertThat(reader.read(new RecordLocation(topic, 0, aborted.offset()))).isInstanceOfSatisfying(SourceRead.Found.class, found -> {
            assertThat(found.atRequestedOffset()).isFalse();
            assertThat(found.record().offset()).isEqualTo(next.offset());
        });
    }

    /** One batch: records spread over partitions, several on one partition, a gap, the end and a missing topic, each answered as alone. */
    @Test
    void aBatchReadAnswersEveryLocationAsASingleReadWould() throws Exception {
        String topic = "reader-batch-" + System.nanoTime();
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        List<RecordMetadata> zero = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            zero.add(send(new ProducerRecord<>(topic, 0, null, new byte[] {(byte) i}), false));
        }
        RecordMetadata aborted = send(new ProducerRecord<>(topic, 1, null, new byte[] {9}), true);
        RecordMetadata afterGap = send(new ProducerRecord<>(topic, 1, null, new byte[] {10}), false);
        RecordLocation first = new RecordLocation(topic, 0, zero.get(0).offset());
        RecordLocation fourth = new RecordLocation(topic, 0, zero.get(3).offset());
        RecordLocation last = new RecordLocation(topic, 0, zero.get(4).offset());
        RecordLocation gap = new RecordLocation(topic, 1, aborted.offset());
        RecordLocation end = new RecordLocation(topic, 0, zero.get(4).offset() + 1);
        RecordLocation missing = new RecordLocation("reader-missing-" + System.nanoTime(), 0, 0);

        Map<RecordLocation, SourceRead> reads = reader.readAll(List.of(last, first, fourth, gap, end, missing));

        assertThat(reads).hasSize(6);
        for (RecordLocation location : List.of(first, fourth, last)) {
            assertThat(reads.get(location)).isInstanceOfSatisfying(SourceRead.Found.class, found -> {
                assertThat(found.atRequestedOffset()).isTrue();
                assertThat(found.record().value()).containsExactly((byte) (location.offset() - first.offset()));
            });
        }
        assertThat(reads.get(gap)).isInstanceOfSatisfying(SourceRead.Found.class,
                found -> assertThat(found.record().offset()).isEqualTo(afterGap.offset()));
        assertThat(reads.get(end)).isInstanceOfSatisfying(SourceRead.NotThere.class,
                notThere -> assertThat(notThere.reason()).isEqualTo(SourceRead.Reason.AT_OR_AFTER_LOG_END));
        assertThat(reads.get(missing)).isInstanceOfSatisfying(SourceRead.NotThere.class,
                notThere -> assertThat(notThere.reason()).isEqualTo(SourceRead.Reason.TOPIC_MISSING));
    }

    @Test
    void anUnreachableBrokerIsUnavailableNotAFactAboutTheRecord() {
        SourceRecordReader nowhere = new SourceRecordReader("127.0.0.1:1", "reader-it", Duration.ofSeconds(2));
        assertThat(nowhere.read(new RecordLocation(TOPIC, 0, 0))).isInstanceOf(SourceRead.Unavailable.class);
    }

    private static RecordMetadata send(ProducerRecord<byte[], byte[]> record, boolean abort) throws Exception {
        Map<String, Object> config = new java.util.HashMap<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
        if (abort) {
            config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "reader-it-" + System.nanoTime());
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            if (!abort) {
                return producer.send(record).get(30, TimeUnit.SECONDS);
            }
            producer.initTransactions();
            producer.beginTransaction();
            RecordMetadata metadata = producer.send(record).get(30, TimeUnit.SECONDS);
            producer.abortTransaction();
            return metadata;
        }
    }
}
