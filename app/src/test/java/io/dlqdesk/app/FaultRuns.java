package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.TestDatabase;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import io.dlqdesk.testsupport.DltRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** What the fault suite's tests share: the service's settings, the ledger read from the database, and the report. */
final class FaultRuns {

    static final Path REPORT = Path.of("target", "fault-report.md");

    private FaultRuns() {
    }

    /** The service's settings for one test: its own topics and groups, and short bounds so outages show quickly. */
    static Map<String, Object> service(TestDatabase database, KafkaBroker broker, FaultRun run, Map<String, Object> extra) {
        Map<String, Object> settings = new HashMap<>(Map.of(
                "dlqdesk.ingest.topic-pattern", "it-" + run.nonce() + "-.*\\.dlq",
                "dlqdesk.ingest.group-id", run.ingestGroup(),
                "dlqdesk.events-topic", "it-" + run.nonce() + "-incident-events",
                "dlqdesk.ingest.readiness-timeout", "5s",
                "dlqdesk.ingest.retry-max-backoff", "2s"));
        settings.putAll(extra);
        return RunningApp.properties(database, broker, settings);
    }

    /**
     * The settings of a run whose rollback check is watched: replays published promptly, and the check's bounds short, so
     * that READY can come soon after the last replay was consumed.
     */
    static Map<String, Object> watchedReplays() {
        return Map.of(
                "dlqdesk.replay.poll-interval", "100ms",
                "dlqdesk.replay.reconciliation-delay", "10s",
                "dlqdesk.rollback.observation-interval", "300ms",
                "dlqdesk.rollback.consumer-retry-window", "1s",
                "dlqdesk.rollback.ingest-delay", "1s",
                "dlqdesk.rollback.clock-skew-margin", "1s");
    }

    /** {@code count} source records, each failed once by {@code group} and dead-lettered with its eventId: incident id -> eventId. */
    static Map<String, String> replayableFailures(KafkaBroker broker, String source, String dlqTopic, String group, int count) throws Exception {
        Map<String, String> eventIds = new HashMap<>();
        try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of())) {
            for (int i = 0; i < count; i++) {
                String eventId = "evt-" + source + "-" + i;
                byte[] key = ("order-" + i).getBytes(StandardCharsets.UTF_8);
                byte[] value = ("{\"order\":" + i + "}").getBytes(StandardCharsets.UTF_8);
                RecordMetadata sent = producer.send(Replays.record(source, i % 2, Instant.now().toEpochMilli(), key, value, eventId))
                        .get(30, TimeUnit.SECONDS);
                // the listener's DLT header carries the failed record's own timestamp
                eventIds.put(Replays.sendFailure(producer, sent, group, key, value, eventId, Instant.ofEpochMilli(sent.timestamp()), dlqTopic), eventId);
            }
        }
        return eventIds;
    }

    /** Requests a replay of each incident, four at a time, from one instance or alternately from several; each must be accepted. */
    static void requestReplays(List<ServiceProcess> services, Collection<String> incidents) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<HttpResponse<String>>> responses = new ArrayList<>();
            int i = 0;
            for (String incident : incidents) {
                ServiceProcess service = services.get(i++ % services.size());
                responses.add(pool.submit(() -> postUntilAnswered(service, "/api/v1/incidents/" + incident + "/replay", "{\"reason\":\"fault suite\"}")));
            }
            for (Future<HttpResponse<String>> response : responses) {
                HttpResponse<String> answer = response.get(2, TimeUnit.MINUTES);
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** As an operator; a 503 (database or broker not answering in time) is tried again for up to a minute, as clients should. */
    static HttpResponse<String> postUntilAnswered(ServiceProcess service, String path, String json) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        HttpResponse<String> response = service.post(path, "operator", json);
        while (response.statusCode() == 503 && System.nanoTime() < deadline) {
            pause(500);
            response = service.post(path, "operator", json);
        }
        return response;
    }

    static void requestReplays(ServiceProcess service, Collection<String> incidents) throws Exception {
        requestReplays(List.of(service), incidents);
    }

    static void replaySwitchOn(ServiceProcess service) throws Exception {
        HttpResponse<String> on = service.put("/api/v1/replay-switch", "admin", "{\"enabled\":true,\"reason\":\"fault suite\"}");
        assertThat(on.statusCode()).as(on.body()).isEqualTo(200);
    }

    static void replaySwitchOff(ServiceProcess service) throws Exception {
        HttpResponse<String> off = service.put("/api/v1/replay-switch", "admin", "{\"enabled\":false,\"reason\":\"fault suite\"}");
        assertThat(off.statusCode()).as(off.body()).isEqualTo(200);
    }

    /** Attempts with a recorded result (PUBLISHED or PUBLISH_FAILED) or marked PUBLISH_UNKNOWN. */
    static int decided(JdbcTemplate jdbc) {
        return count(jdbc, "SELECT COUNT(*) FROM domain_event_entry WHERE payload_type LIKE '%.PublishResultRecorded' "
                + "OR payload_type LIKE '%.PublishMarkedUnknown'");
    }

    /** incident id -> eventId of the attempts whose recorded result is PUBLISHED. */
    static Map<String, String> publishedEventIds(JdbcTemplate jdbc, Map<String, String> eventIds) {
        Map<String, String> published = new HashMap<>();
        for (String incident : publishedPerIncident(jdbc).keySet()) {
            if (eventIds.containsKey(incident)) {
                published.put(incident, eventIds.get(incident));
            }
        }
        return published;
    }

    /** incident id -> how many results PUBLISHED it has recorded. */
    static Map<String, Integer> publishedPerIncident(JdbcTemplate jdbc) {
        Map<String, Integer> counts = new HashMap<>();
        jdbc.query("SELECT aggregate_identifier, payload FROM domain_event_entry WHERE payload_type LIKE '%.PublishResultRecorded'", row -> {
            if (new String(row.getBytes(2), StandardCharsets.UTF_8).contains("\"PUBLISHED\"")) {
                counts.merge(row.getString(1), 1, Integer::sum);
            }
        });
        return counts;
    }

    static int count(JdbcTemplate jdbc, String sql, Object... arguments) {
        Integer count = jdbc.queryForObject(sql, Integer.class, arguments);
        return count == null ? 0 : count;
    }

    /**
     * What the consumer's DeadLetterPublishingRecoverer writes when the published replays of {@code group}
     * fail again: each replayed record (its key, value and headers, correlation headers included) as a
     * DLQ record naming the replay's own location; root incident id -> that DLQ record.
     */
    static Map<String, ProducerRecord<byte[], byte[]>> refailures(JdbcTemplate jdbc, KafkaBroker broker, String group, String dlqTopic) {
        Map<String, ProducerRecord<byte[], byte[]>> refailures = new HashMap<>();
        List<Map<String, Object>> published = jdbc.queryForList("SELECT incident_id, published_topic, published_partition, published_offset "
                + "FROM replay_attempt WHERE target_group = ? AND status = 'PUBLISHED'", group);
        // one record at a time, each after a seek: a fetch still out for the last position waits up to fetch.max.wait.ms
        // (500 ms by default) before the next read can start, which made 200 reads take 100 s (as SourceRecordReader does, 10 ms)
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            for (Map<String, Object> row : published) {
                TopicPartition partition = new TopicPartition((String) row.get("published_topic"), ((Number) row.get("published_partition")).intValue());
                long offset = ((Number) row.get("published_offset")).longValue();
                ConsumerRecord<byte[], byte[]> replay = read(consumer, partition, offset);
                DltRecord failure = DltRecord.failure(partition.topic(), partition.partition(), offset, group)
                        .key(replay.key()).value(replay.value()).without("eventId").without("kafka_dlt-original-timestamp")
                        .header("kafka_dlt-original-timestamp", ByteBuffer.allocate(8).putLong(replay.timestamp()).array());
                for (Header header : replay.headers()) {
                    failure.header(header.key(), header.value());
                }
                refailures.put((String) row.get("incident_id"), failure.to(dlqTopic, refailures.size() % 2));
            }
        }
        return refailures;
    }

    private static ConsumerRecord<byte[], byte[]> read(KafkaConsumer<byte[], byte[]> consumer, TopicPartition partition, long offset) {
        consumer.assign(List.of(partition));
        consumer.seek(partition, offset);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                if (record.offset() == offset) {
                    return record;
                }
            }
        }
        throw new IllegalStateException("no record at " + partition + "@" + offset);
    }

    /**
     * Deletes the run's topics (their names hold its nonce): tens of thousands of records left on the shared
     * broker would be ingested by every later test whose service reads all DLQ topics.
     */
    static void deleteTopicsOf(KafkaBroker broker, String nonce) throws Exception {
        if (nonce == null) {
            return;
        }
        try (Admin admin = broker.admin()) {
            List<String> topics = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream().filter(name -> name.contains(nonce)).toList();
            admin.deleteTopics(topics).all().get(60, TimeUnit.SECONDS);
        }
    }

    /** A connection per statement: it works again as soon as the database is back. */
    static JdbcTemplate jdbc(TestDatabase database) {
        JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(database.jdbcUrl(), database.username(), database.password()));
        jdbc.setQueryTimeout(10);
        return jdbc;
    }

    /** How many IncidentOpened events each incident has in the event store. */
    static Map<String, Integer> openedPerIncident(JdbcTemplate jdbc) {
        return perIncident(jdbc, "IncidentOpened");
    }

    /** How many RetryFailureCorrelated events each incident has. */
    static Map<String, Integer> correlatedPerIncident(JdbcTemplate jdbc) {
        return perIncident(jdbc, "RetryFailureCorrelated");
    }

    /** How many events of a type each aggregate has in the event store. */
    static Map<String, Integer> perIncident(JdbcTemplate jdbc, String eventType) {
        Map<String, Integer> counts = new HashMap<>();
        jdbc.query("SELECT aggregate_identifier, COUNT(*) FROM domain_event_entry WHERE payload_type LIKE ? GROUP BY aggregate_identifier",
                row -> {
                    counts.put(row.getString(1), row.getInt(2));
                }, "%." + eventType);
        return counts;
    }

    /** The incident ids of failure keys. */
    static List<String> ids(Collection<FailureKey> keys) {
        return keys.stream().map(key -> IncidentId.of(key).value()).toList();
    }

    /**
     * Each expected incident has its event exactly once, and no other incident has it: duplicates (more than
     * once, or unexpected) and lost (never), counted.
     */
    static Tally tally(Collection<String> expected, Map<String, Integer> perIncident) {
        long lost = 0;
        long duplicates = 0;
        Map<String, Integer> rest = new HashMap<>(perIncident);
        for (String incident : expected) {
            Integer count = rest.remove(incident);
            if (count == null) {
                lost++;
            } else {
                duplicates += count - 1;
            }
        }
        long strays = rest.values().stream().mapToLong(Integer::longValue).sum();
        return new Tally(expected.size(), duplicates + strays, lost);
    }

    record Tally(long records, long duplicates, long lost) {
    }

    /** Axon's token owner name for a process: its runtime name, pid@host. */
    static String owner(ServiceProcess service) {
        return service.pid() + "@";
    }

    /** processor -> the owners of its segments, as pid@ prefixes ("unclaimed" for a segment nobody holds). */
    static Map<String, Set<String>> owners(JdbcTemplate jdbc) {
        Map<String, Set<String>> owners = new HashMap<>();
        jdbc.query("SELECT processor_name, owner FROM token_entry", row -> {
            String owner = row.getString(2);
            owners.computeIfAbsent(row.getString(1), name -> new HashSet<>()).add(owner == null ? "unclaimed" : owner.substring(0, owner.indexOf('@') + 1));
        });
        return owners;
    }

    static Map<String, Set<TopicPartition>> partitionsByMember(KafkaBroker broker, String group) throws Exception {
        try (Admin admin = broker.admin()) {
            ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group)).all().get(10, TimeUnit.SECONDS).get(group);
            Map<String, Set<TopicPartition>> byMember = new HashMap<>();
            for (MemberDescription member : description.members()) {
                byMember.put(member.consumerId(), member.assignment().topicPartitions());
            }
            return byMember;
        }
    }

    /** The end offset of each of the topic's partitions. */
    static Map<TopicPartition, Long> endOffsets(KafkaBroker broker, String topic, int partitions) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int partition = 0; partition < partitions; partition++) {
            latest.put(new TopicPartition(topic, partition), OffsetSpec.latest());
        }
        Map<TopicPartition, Long> ends = new HashMap<>();
        try (Admin admin = broker.admin()) {
            admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).forEach((partition, info) -> ends.put(partition, info.offset()));
        }
        return ends;
    }

    /** A daemon thread running {@code task}, started. */
    static Thread daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One row of the suite's report (target/fault-report.md), also printed. */
    static void report(String run, long records, long duplicates, long lost, Duration timeToRecover, String note) throws IOException {
        if (!Files.exists(REPORT)) {
            Files.createDirectories(REPORT.getParent());
            Files.writeString(REPORT, "| run | records | duplicates | lost | time to recover | note |\n|---|---:|---:|---:|---:|---|\n",
                    StandardCharsets.UTF_8);
        }
        String row = String.format("| %s | %,d | %d | %d | %.1f s | %s |%n", run, records, duplicates, lost, timeToRecover.toMillis() / 1000.0, note);
        Files.writeString(REPORT, row, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        System.out.print("[fault-suite] " + row);
    }
}
