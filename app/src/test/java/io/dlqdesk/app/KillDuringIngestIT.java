package io.dlqdesk.app;

import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * kill -9 in the middle of ingesting 20,000 first failures, 500 of them dead-lettered twice, and 200
 * re-failures of real replays, then a new process: every failure is exactly one incident, every
 * re-failure exactly one correlated failure of its incident (none opens its own), none missing, and the
 * group's positions reach the end.
 */
@RealInfrastructure
class KillDuringIngestIT {

    @RegisterExtension
    final FaultRun run = new FaultRun("kill");

    private static final int PARTITIONS = 4;
    private static final int RECORDS = 20_000;
    private static final int DEAD_LETTERED_TWICE = 500;
    private static final int REFAILURES = 200;
    private static final String GROUP = "billing";
    private static final String REPLAYED_GROUP = "orders-service";

    @Test
    void killedMidIngestAndStartedAgainEveryFailureIsExactlyOneIncident(TestDatabase database, KafkaBroker broker) throws Exception {
        String dlqTopic = run.dlqTopic();
        String original = run.topic("orders");
        String source = run.topic("replayed");
        IngestLedger.createTopic(broker, dlqTopic, PARTITIONS, Map.of());
        IngestLedger.createTopic(broker, source, 2, Map.of());
        Map<String, String> replayed = FaultRuns.replayableFailures(broker, source, dlqTopic, REPLAYED_GROUP, REFAILURES);
        Map<String, Object> settings = FaultRuns.service(database, broker, run, Map.of("dlqdesk.replay.poll-interval", "100ms"));
        JdbcTemplate jdbc = FaultRuns.jdbc(database);
        List<FailureKey> keys = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            keys.add(new FailureKey(original, i % PARTITIONS, i / PARTITIONS, GROUP));
        }

        long openedAtKill;
        long killedAt;
        try (ServiceProcess first = ServiceProcess.start("ingest-kill-first", settings)) {
            first.awaitReady(FaultRun.START);
            await().atMost(Duration.ofMinutes(2)).until(() -> FaultRuns.count(jdbc, "SELECT COUNT(*) FROM incident_summary WHERE topic = ?", source) == REFAILURES);
            FaultRuns.replaySwitchOn(first);
            FaultRuns.requestReplays(first, replayed.keySet());
            await().atMost(Duration.ofMinutes(2)).until(() -> FaultRuns.count(jdbc, "SELECT COUNT(*) FROM replay_attempt WHERE target_group = ? "
                    + "AND status = 'PUBLISHED'", REPLAYED_GROUP) == REFAILURES);
            Map<String, ProducerRecord<byte[], byte[]>> refailures = FaultRuns.refailures(jdbc, broker, REPLAYED_GROUP, dlqTopic);
            assertThat(refailures).hasSize(REFAILURES);
            send(broker, dlqTopic, keys, List.copyOf(refailures.values()));
            // the group's committed positions say what is durably ingested, without a query that competes with the service
            long total = FaultRuns.endOffsets(broker, dlqTopic, PARTITIONS).values().stream().mapToLong(Long::longValue).sum();
            await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(250))
                    .until(() -> committed(broker, run.ingestGroup(), dlqTopic) >= total / 4);
            first.kill();
            killedAt = System.nanoTime();
            openedAtKill = FaultRuns.openedPerIncident(jdbc).size();
        }
        assertThat(openedAtKill).as("killed mid-ingest, not after it").isLessThan(RECORDS);

        try (ServiceProcess second = ServiceProcess.start("ingest-kill-second", settings)) {
            second.awaitReady(FaultRun.START);
            Map<TopicPartition, Long> ends = FaultRuns.endOffsets(broker, dlqTopic, PARTITIONS);
            await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
                    assertThat(broker.committedOffset(run.ingestGroup(), end.getKey())).as("committed on " + end.getKey()).isEqualTo(end.getValue());
                }
            });
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> FaultRuns.openedPerIncident(jdbc).size() >= RECORDS + REFAILURES
                            && FaultRuns.correlatedPerIncident(jdbc).size() >= REFAILURES);
            Duration recovered = Duration.ofNanos(System.nanoTime() - killedAt);

            List<String> incidents = new ArrayList<>(FaultRuns.ids(keys));
            incidents.addAll(replayed.keySet());
            FaultRuns.Tally opened = FaultRuns.tally(incidents, FaultRuns.openedPerIncident(jdbc));
            FaultRuns.Tally correlated = FaultRuns.tally(replayed.keySet(), FaultRuns.correlatedPerIncident(jdbc));
            FaultRuns.report("kill -9 mid-ingest", RECORDS + DEAD_LETTERED_TWICE + REFAILURES, opened.duplicates() + correlated.duplicates(),
                    opened.lost() + correlated.lost(), recovered, String.format("%,d first failures (%d of them twice), %d re-failures of "
                            + "replays; killed at %,d incidents; recovered = kill until every record committed and every incident "
                            + "stored, restart included",
                            RECORDS, DEAD_LETTERED_TWICE, REFAILURES, openedAtKill));
            assertThat(opened.duplicates()).as("duplicate incidents (a re-failure opening its own counts)").isZero();
            assertThat(opened.lost()).as("failures without an incident").isZero();
            assertThat(correlated.duplicates()).as("re-failures correlated twice").isZero();
            assertThat(correlated.lost()).as("re-failures not correlated").isZero();
            await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> assertThat(jdbc.queryForObject(
                    "SELECT COUNT(*) FROM incident_summary WHERE topic = ?", Integer.class, original)).as("listed").isEqualTo(RECORDS));
        }
    }

    /**
     * Every failure once with a re-failure after every hundredth, then the first 500 again (a producer retry or
     * a redelivery dead-letters a record twice).
     */
    private static void send(KafkaBroker broker, String dlqTopic, List<FailureKey> keys, List<ProducerRecord<byte[], byte[]>> refailures)
            throws Exception {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of(ProducerConfig.LINGER_MS_CONFIG, 5))) {
            List<FailureKey> all = new ArrayList<>(keys);
            all.addAll(keys.subList(0, DEAD_LETTERED_TWICE));
            for (int i = 0; i < all.size(); i++) {
                FailureKey key = all.get(i);
                sent.add(producer.send(DltRecord.failure(key.topic(), key.partition(), key.offset(), key.consumerGroup())
                        .to(dlqTopic, key.partition())));
                if (i % 100 == 99 && i / 100 < refailures.size()) {
                    sent.add(producer.send(refailures.get(i / 100)));
                }
            }
            producer.flush();
        }
        for (Future<RecordMetadata> future : sent) {
            future.get(30, TimeUnit.SECONDS);
        }
    }

    private static long committed(KafkaBroker broker, String group, String topic) throws Exception {
        long sum = 0;
        for (int partition = 0; partition < PARTITIONS; partition++) {
            Long offset = broker.committedOffset(group, new TopicPartition(topic, partition));
            sum += offset == null ? 0 : offset;
        }
        return sum;
    }
}
