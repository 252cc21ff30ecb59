package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code /actuator/prometheus} for the scraper's role and ADMIN only, and the gauges an on-call person reads first,
 * checked against what the service really ingested and stored.
 */
@RealInfrastructure
class PrometheusIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String PATH = "/actuator/prometheus";
    private static final String NONCE = "p" + System.nanoTime();
    private static final String DLQ_TOPIC = "it-" + NONCE + "-orders.dlq";
    private static final String ORIGINAL = "orders-" + NONCE;
    private static final String GROUP = "billing-" + NONCE;
    /** A source topic keeping records a day, less than the replay window: flagged, so the flag family has a series. */
    private static final String SHORT_LIVED = "short-" + NONCE;
    private static ConfigurableApplicationContext app;
    private static String strayReplay;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) throws Exception {
        IngestLedger.createTopic(broker, DLQ_TOPIC, 1, Map.of());
        IngestLedger.createTopic(broker, SHORT_LIVED, 1, Map.of("retention.ms", "86400000"));
        app = RunningApp.start(database, broker, Map.ofEntries(
                // a receiver nobody listens for (a closed loopback port): its notification counters and backlog gauges exist
                Map.entry("dlqdesk.notifications.webhooks[0].name", "scraped"),
                Map.entry("dlqdesk.notifications.webhooks[0].url", "http://127.0.0.1:" + closedPort() + "/hook"),
                Map.entry("dlqdesk.retention.topics", SHORT_LIVED),
                Map.entry("dlqdesk.events-topic", "it-" + NONCE + "-incident-events"),
                Map.entry("dlqdesk.ingest.topic-pattern", "it-" + NONCE + "-.*\\.dlq"),
                Map.entry("dlqdesk.ingest.group-id", "ingest-" + NONCE),
                // the stray outbox row below must stay PENDING: nothing publishes it
                Map.entry("dlqdesk.replay.force-off", "true"),
                Map.entry("dlqdesk.rollback.observation-interval", "100ms"),
                Map.entry("dlqdesk.metrics.refresh-interval", "1s"),
                Map.entry("dlqdesk.metrics.query-timeout", "1s")));
    }

    @AfterAll
    static void stop() {
        if (strayReplay != null) { // other tests' rollback checks count PENDING rows
            app.getBean(JdbcTemplate.class).update("DELETE FROM replay_outbox WHERE replay_id = ?", strayReplay);
        }
        app.close();
    }

    @Test
    void onlyTheScraperAndAdminsMayScrape() throws Exception {
        HttpResponse<String> anonymous = RunningApp.get(app, PATH);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.body()).doesNotContain("dlq_");
        for (String refused : new String[] {"viewer", "operator", "deployer"}) {
            HttpResponse<String> response = RunningApp.get(app, PATH, refused, RunningApp.PASSWORD);
            assertThat(response.statusCode()).as(refused).isEqualTo(403);
            assertThat(response.body()).as(refused).contains("urn:dlqdesk:problem:forbidden").doesNotContain("dlq_");
        }
        for (String allowed : new String[] {"metrics", "admin"}) {
            HttpResponse<String> response = RunningApp.get(app, PATH, allowed, RunningApp.PASSWORD);
            assertThat(response.statusCode()).as(allowed).isEqualTo(200);
            assertThat(response.body()).as(allowed).contains("dlq_ingest_records_total");
        }
    }

    @Test
    void theScrapersCredentialReadsNothingElse() throws Exception {
        for (String path : new String[] {"/api/v1/incidents", "/api/v1/quarantine", "/actuator/info", "/api/v1/rollback-readiness"}) {
            assertThat(RunningApp.get(app, path, "metrics", RunningApp.PASSWORD).statusCode()).as(path).isEqualTo(403);
            assertThat(RunningApp.get(app, path, "admin", RunningApp.PASSWORD).statusCode()).as(path).isIn(200, 409, 503);
        }
    }

    @Test
    void theGaugesShowWhatWasIngestedAndStored(KafkaBroker broker) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of())) {
            for (long offset = 1; offset <= 3; offset++) {
                producer.send(DltRecord.failure(ORIGINAL, 0, offset, GROUP).to(DLQ_TOPIC, 0)).get(30, TimeUnit.SECONDS);
            }
            producer.send(new ProducerRecord<>(DLQ_TOPIC, 0, null, "k".getBytes(StandardCharsets.UTF_8),
                    "no dead-letter headers at all".getBytes(StandardCharsets.UTF_8))).get(30, TimeUnit.SECONDS);
        }
        Map<String, String> ours = Map.of("topic", ORIGINAL, "group", GROUP);
        await().atMost(WAIT).untilAsserted(() -> assertThat(gauge("dlq_incidents_open", with(ours, "status", "OPEN"))).contains(3.0));

        String acknowledged = IncidentId.of(new FailureKey(ORIGINAL, 0, 1, GROUP)).value();
        assertThat(RunningApp.post(app, "/api/v1/incidents/" + acknowledged + "/acknowledge", "operator", "{\"reason\":\"looking\"}")
                .statusCode()).isEqualTo(204);
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(gauge("dlq_incidents_open", with(ours, "status", "OPEN"))).contains(2.0);
            assertThat(gauge("dlq_incidents_open", with(ours, "status", "ACKED"))).contains(1.0);
        });

        JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
        String exceptionGroup = jdbc.queryForObject("SELECT exception_group FROM incident_summary WHERE incident_id = ?", String.class, acknowledged);
        await().atMost(WAIT).untilAsserted(() -> {
            long open = jdbc.queryForObject("SELECT COUNT(*) FROM incident_summary WHERE exception_group = ? AND status = 'OPEN'", Long.class,
                    exceptionGroup);
            assertThat(gauge("dlq_incidents_open_by_exception_group", Map.of("exception_group", exceptionGroup, "status", "OPEN")))
                    .contains((double) open);
        });
        assertThat(gauge("dlq_incidents_oldest_open_age_seconds", Map.of())).hasValueSatisfying(age -> assertThat(age).isPositive());

        // the record without dead-letter headers: quarantined, and counted with every other quarantined record
        await().atMost(WAIT).untilAsserted(() -> {
            long quarantined = jdbc.queryForObject("SELECT COUNT(*) FROM dlq_quarantine WHERE dlq_topic = ?", Long.class, DLQ_TOPIC);
            assertThat(quarantined).isEqualTo(1);
            assertThat(gauge("dlq_ingest_quarantined_records", Map.of()))
                    .contains(jdbc.queryForObject("SELECT COUNT(*) FROM dlq_quarantine", Long.class).doubleValue());
        });

        // the DLQ partition's records are all ingested and committed: no lag, and ingest is ready
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(gauge("dlq_ingest_partition_lag_records", Map.of("topic", DLQ_TOPIC, "partition", "0"))).contains(0.0);
            assertThat(gauge("dlq_ingest_lag_records", Map.of())).contains(0.0);
        });
        assertThat(gauge("dlq_ingest_ready", Map.of())).contains(1.0);

        // every read model's processor has a lag series, and it drains to 0 once the events are applied
        await().atMost(WAIT).untilAsserted(() -> {
            for (String group : List.of("incident-read-models", "rollback-facts", "replay-saga")) {
                assertThat(gauge("dlq_processor_lag_events", Map.of("processing_group", group))).as(group).contains(0.0);
                assertThat(gauge("dlq_processor_lag_age_seconds", Map.of("processing_group", group))).as(group).contains(0.0);
            }
            // a series per processing group that parks events, none parked
            assertThat(gauge("dlq_parked_events", Map.of("processor", "incident-read-models", "processing_group", "incident-summary")))
                    .contains(0.0);
            assertThat(gauge("dlq_parked_events", Map.of("processor", "rollback-facts", "processing_group", "rollback-facts"))).contains(0.0);
        });

        // each processor transaction is measured by its events: the Kafka publisher handles every stored event (this
        // database's store began empty), so its batches add up to at least the events stored by now
        long stored = jdbc.queryForObject("SELECT COUNT(*) FROM domain_event_entry", Long.class);
        Map<String, String> publisher = Map.of("processing_group", "incident-events-kafka-publisher");
        await().atMost(WAIT).untilAsserted(() -> assertThat(gauge("dlq_processor_batch_events_sum", publisher))
                .hasValueSatisfying(events -> assertThat(events).isGreaterThanOrEqualTo(stored)));
        assertThat(gauge("dlq_processor_batch_events_count", publisher)).hasValueSatisfying(batches -> assertThat(batches).isPositive());
    }

    @Test
    void theOutboxGaugesCountPendingRowsAndTheOldestOnesWait() throws Exception {
        JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
        strayReplay = Replays.strayPendingRow(jdbc, NONCE);
        await().atMost(WAIT).untilAsserted(() -> {
            long pending = jdbc.queryForObject("SELECT COUNT(*) FROM replay_outbox WHERE status = 'PENDING'", Long.class);
            assertThat(pending).isPositive();
            assertThat(gauge("dlq_replay_outbox_pending", Map.of())).contains((double) pending);
            assertThat(gauge("dlq_replay_outbox_oldest_pending_age_seconds", Map.of())).hasValueSatisfying(age -> assertThat(age).isPositive());
        });
    }

    @Test
    void theRollbackVerdictGaugeShowsTheLastCheckWithoutRunningOne() throws Exception {
        HttpResponse<String> check = RunningApp.get(app, "/api/v1/rollback-readiness", "deployer", RunningApp.PASSWORD);
        double verdict = switch (check.statusCode()) {
            case 200 -> 0;
            case 409 -> 1;
            case 503 -> 2;
            default -> throw new AssertionError("unexpected " + check.statusCode() + " " + check.body());
        };
        assertThat(gauge("dlq_rollback_verdict", Map.of())).contains(verdict);
    }

    /**
     * The shipped alert rules and dashboard against what the running service serves after real activity: every metric
     * their queries select (and every dlq_ name their texts point at) is in the scrape, so a renamed metric fails here.
     */
    @Test
    void theAlertRulesAndTheDashboardUseOnlyMetricsTheServiceServes(KafkaBroker broker) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of())) {
            // its own topic and group: the other tests count incidents of theirs
            producer.send(DltRecord.failure("ops-" + ORIGINAL, 0, 100, "ops-" + GROUP).to(DLQ_TOPIC, 0)).get(30, TimeUnit.SECONDS);
        }
        RunningApp.get(app, "/api/v1/rollback-readiness", "deployer", RunningApp.PASSWORD); // a verdict, whichever
        Map<String, Set<String>> used = OpsFiles.metricNamesIn(OpsFiles.alertRules(), OpsFiles.dashboardQueries());
        assertThat(used).isNotEmpty();
        await().atMost(WAIT).untilAsserted(() -> {
            HttpResponse<String> scrape = RunningApp.get(app, PATH, "metrics", RunningApp.PASSWORD);
            Set<String> served = OpsFiles.scrapedNames(scrape.body());
            Map<String, Set<String>> missing = new TreeMap<>();
            used.forEach((query, names) -> names.stream().filter(name -> !served.contains(name))
                    .forEach(name -> missing.computeIfAbsent(query, q -> new TreeSet<>()).add(name)));
            assertThat(missing).as("metrics used in ops/ that /actuator/prometheus does not serve").isEmpty();
        });
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    private static Map<String, String> with(Map<String, String> labels, String name, String value) {
        Map<String, String> all = new HashMap<>(labels);
        all.put(name, value);
        return all;
    }

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** The value of the one sample of {@code name} whose labels include {@code labels}, from a scrape as the scraper. */
    private static Optional<Double> gauge(String name, Map<String, String> labels) throws Exception {
        HttpResponse<String> scrape = RunningApp.get(app, PATH, "metrics", RunningApp.PASSWORD);
        assertThat(scrape.statusCode()).isEqualTo(200);
        Optional<Double> found = Optional.empty();
        for (String line : scrape.body().split("\n")) {
            Matcher sample = SAMPLE.matcher(line);
            if (line.startsWith("#") || !sample.matches() || !sample.group(1).equals(name)) {
                continue;
            }
            Map<String, String> actual = new HashMap<>();
            Matcher label = LABEL.matcher(sample.group(2) == null ? "" : sample.group(2));
            while (label.find()) {
                actual.put(label.group(1), label.group(2));
            }
            if (actual.entrySet().containsAll(labels.entrySet())) {
                assertThat(found).as("more than one sample of " + name + " with " + labels).isEmpty();
                found = Optional.of(Double.parseDouble(sample.group(3)));
            }
        }
        return found;
    }
}
