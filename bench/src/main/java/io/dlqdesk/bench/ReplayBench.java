package io.dlqdesk.bench;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.replay.request.ReplayRequester;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Replay: M incidents replayed until all are PUBLISHED (requests from 4 threads, the outbox poller as
 * shipped), against two raw producers: one that reads each source record at its offset and sends it again
 * (one consumer, one producer, each send acknowledged before the next), and {@link PipelinedBaseline}, which
 * reads the same records in bulk and sends them without waiting for each acknowledgement.
 */
final class ReplayBench {

    private static final String PADDING = "x".repeat(150);

    /** The group that failed in round {@code round}: each round's incidents are its own. */
    static String group(int round) {
        return "bench-consumer-" + round;
    }

    static String sourceTopic(int round) {
        return "bench-src-" + round;
    }

    static String prepTopic(int round) {
        return "bench-prep-" + round + ".dlq";
    }

    private final ProductUnderTest product;
    private final int replays;

    ReplayBench(ProductUnderTest product, int replays) {
        this.product = product;
        this.replays = replays;
    }

    /** Source records and their failures, ingested into incidents (not timed). */
    List<RecordMetadata> prepare(int round) throws Exception {
        List<RecordMetadata> sources = sendSources(product.broker, sourceTopic(round), String.valueOf(round), replays);
        try (KafkaProducer<byte[], byte[]> producer = Records.producer(product.broker)) {
            for (int i = 0; i < replays; i++) {
                producer.send(failure(sources.get(i), String.valueOf(round), i, group(round), prepTopic(round), i % Records.PARTITIONS));
            }
        }
        awaitCount("SELECT COUNT(*) FROM incident_summary WHERE topic = ?", sourceTopic(round), replays, Duration.ofMinutes(5));
        return sources;
    }

    /**
     * {@code count} source records on {@code topic} over its partitions, each with a key, an eventId header and a JSON value of
     * about 200 bytes (labelled {@code label} so that rounds differ), sent and acknowledged: what a replay sends again.
     */
    static List<RecordMetadata> sendSources(KafkaBroker broker, String topic, String label, int count) throws Exception {
        List<RecordMetadata> sources = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = Records.producer(broker)) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, i % Records.PARTITIONS, System.currentTimeMillis(),
                        Records.utf8("k-" + label + "-" + i), value(i));
                record.headers().add("eventId", Records.utf8("evt-" + label + "-" + i));
                sent.add(producer.send(record));
            }
            for (Future<RecordMetadata> future : sent) {
                sources.add(future.get(60, TimeUnit.SECONDS));
            }
        }
        return sources;
    }

    /** What the consumer's DeadLetterPublishingRecoverer writes when {@code group} fails on source {@code i} of {@link #sendSources}. */
    static ProducerRecord<byte[], byte[]> failure(RecordMetadata source, String label, int i, String group, String dlqTopic, int dlqPartition) {
        return DltRecord.failure(source.topic(), source.partition(), source.offset(), group)
                .key(Records.utf8("k-" + label + "-" + i)).value(value(i))
                .without("eventId").header("eventId", "evt-" + label + "-" + i)
                .without("kafka_dlt-original-timestamp")
                .header("kafka_dlt-original-timestamp", ByteBuffer.allocate(8).putLong(source.timestamp()).array())
                .to(dlqTopic, dlqPartition);
    }

    /** Seconds from the first request to the last attempt PUBLISHED. */
    double product(int round, List<RecordMetadata> sources) throws Exception {
        product.awaitProcessorsAtHead();
        ReplayRequester requester = product.app.getBean(ReplayRequester.class);
        long started = System.nanoTime();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<ReplayOutcome>> outcomes = new ArrayList<>();
            for (RecordMetadata source : sources) {
                outcomes.add(threads.submit(() -> requester.request(
                        IncidentId.of(new FailureKey(source.topic(), source.partition(), source.offset(), group(round))),
                        new RecordLocation(source.topic(), source.partition(), source.offset()), group(round),
                        new OperatorAction("bench", "benchmark replay", Instant.now()), false, null)));
            }
            for (Future<ReplayOutcome> outcome : outcomes) {
                ReplayOutcome result = outcome.get(5, TimeUnit.MINUTES);
                if (result.attempt() == null) {
                    throw new IllegalStateException("replay refused: " + result);
                }
            }
        } finally {
            threads.shutdown();
        }
        awaitCount("SELECT COUNT(*) FROM replay_attempt WHERE target_group = ? AND status = 'PUBLISHED'", group(round), replays,
                Duration.ofMinutes(5));
        return (System.nanoTime() - started) / 1e9;
    }

    /**
     * Where a round's replays spent their time, from the times stored with each: its request accepted (the
     * {@code ReplayRequested} event's time), its outbox row written and decided once the broker acknowledged the send (the
     * database's clock, as the poller writes them), its result recorded in the incident (the {@code PublishResultRecorded}
     * event's time). Milliseconds per stage: p50, p99 and max over the round's replays.
     */
    Map<String, Object> stages(int round) {
        List<Instant[]> times = product.jdbc.query("SELECT requested.time_stamp, o.created_at, o.decided_at, recorded.time_stamp"
                        + " FROM replay_outbox o"
                        + " JOIN domain_event_entry requested ON requested.aggregate_identifier = o.incident_id"
                        + " AND requested.payload_type LIKE '%.ReplayRequested'"
                        + " JOIN domain_event_entry recorded ON recorded.aggregate_identifier = o.incident_id"
                        + " AND recorded.payload_type LIKE '%.PublishResultRecorded'"
                        + " WHERE o.target_group = ? AND o.attempt = 1",
                (row, n) -> new Instant[] {Instant.parse(row.getString(1)), utc(row.getObject(2, LocalDateTime.class)),
                        utc(row.getObject(3, LocalDateTime.class)), Instant.parse(row.getString(4))}, group(round));
        if (times.size() != replays) { // each incident of a round is replayed once: anything else is a bench error
            throw new IllegalStateException(times.size() + " replays with their stage times, " + replays + " requested, in round " + round);
        }
        Map<String, Object> stages = new LinkedHashMap<>();
        stages.put("requested_to_outbox_row", millis(times, 0, 1));
        stages.put("outbox_row_to_acknowledged", millis(times, 1, 2));
        stages.put("acknowledged_to_recorded_in_the_incident", millis(times, 2, 3));
        stages.put("requested_to_recorded", millis(times, 0, 3));
        return stages;
    }

    private static Instant utc(LocalDateTime time) {
        return time.toInstant(ZoneOffset.UTC);
    }

    private static Map<String, Object> millis(List<Instant[]> times, int from, int to) {
        double[] sorted = times.stream().mapToDouble(t -> Duration.between(t[from], t[to]).toNanos() / 1e6).sorted().toArray();
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("p50", Math.round(Stats.percentile(sorted, 0.5) * 10) / 10.0);
        summary.put("p99", Math.round(Stats.percentile(sorted, 0.99) * 10) / 10.0);
        summary.put("max", Math.round(sorted[sorted.length - 1] * 10) / 10.0);
        return summary;
    }

    /** Seconds for the raw producer to read and resend the same records. */
    double baseline(List<RecordMetadata> sources) throws Exception {
        product.awaitProcessorsAtHead();
        long started = System.nanoTime();
        try (KafkaConsumer<byte[], byte[]> consumer = Records.reader(product.broker);
             KafkaProducer<byte[], byte[]> producer = Records.producer(product.broker)) {
            for (RecordMetadata source : sources) {
                ConsumerRecord<byte[], byte[]> record = read(consumer, source.topic(), source.partition(), source.offset());
                ProducerRecord<byte[], byte[]> copy = new ProducerRecord<>(record.topic(), record.partition(), record.timestamp(), record.key(),
                        record.value(), record.headers());
                producer.send(copy).get(60, TimeUnit.SECONDS);
            }
        }
        return (System.nanoTime() - started) / 1e9;
    }

    /** Seconds for the pipelined raw producer to read and resend the same records, in the same order. */
    double pipelinedBaseline(List<RecordMetadata> sources) throws Exception {
        product.awaitProcessorsAtHead();
        long started = System.nanoTime();
        PipelinedBaseline.resend(product.broker, sources);
        return (System.nanoTime() - started) / 1e9;
    }

    /** What the consumer's DeadLetterPublishingRecoverer writes when a replay of round {@code round} fails again. */
    List<ProducerRecord<byte[], byte[]>> refailures(int round, String dlqTopic) {
        List<ProducerRecord<byte[], byte[]>> refailures = new ArrayList<>();
        List<RecordLocation> published = product.jdbc.query("SELECT published_topic, published_partition, published_offset FROM replay_attempt "
                        + "WHERE target_group = ? AND status = 'PUBLISHED' ORDER BY published_partition, published_offset",
                (row, n) -> new RecordLocation(row.getString(1), row.getInt(2), row.getLong(3)), group(round));
        try (KafkaConsumer<byte[], byte[]> consumer = Records.reader(product.broker)) {
            int i = 0;
            for (RecordLocation location : published) {
                ConsumerRecord<byte[], byte[]> replay = read(consumer, location.topic(), location.partition(), location.offset());
                DltRecord failure = DltRecord.failure(location.topic(), location.partition(), location.offset(), group(round))
                        .key(replay.key()).value(replay.value()).without("eventId").without("kafka_dlt-original-timestamp")
                        .header("kafka_dlt-original-timestamp", ByteBuffer.allocate(8).putLong(replay.timestamp()).array());
                for (Header header : replay.headers()) {
                    failure.header(header.key(), header.value());
                }
                refailures.add(failure.to(dlqTopic, i++ % Records.PARTITIONS));
            }
        }
        return refailures;
    }

    private static byte[] value(int i) {
        return Records.utf8(String.format(Locale.ROOT, "{\"order\":%d,\"amount\":%d.%02d,\"note\":\"%s\"}", i, i % 1000, i % 100, PADDING));
    }

    static ConsumerRecord<byte[], byte[]> read(KafkaConsumer<byte[], byte[]> consumer, String topic, int partition, long offset) {
        TopicPartition tp = new TopicPartition(topic, partition);
        consumer.assign(List.of(tp));
        consumer.seek(tp, offset);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                if (record.offset() == offset) {
                    return record;
                }
            }
        }
        throw new IllegalStateException("no record at " + tp + "/" + offset);
    }

    private void awaitCount(String sql, String argument, long target, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Long count = product.jdbc.queryForObject(sql, Long.class, argument);
            if (count != null && count >= target) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(count + " of " + target + " after " + timeout + ": " + sql);
            }
            Thread.sleep(100);
        }
    }
}
