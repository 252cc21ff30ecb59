package io.dlqdesk.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.job.PauseReplayJobCommand;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Bulk replay jobs on the real database and broker, one application for every scenario. Each scenario has a source topic of
 * its own, consumed by a real Spring Kafka listener ({@link OrdersService}) that dead-letters what it fails on; ingest opens
 * the incidents as in production. The pace is measured on a LogAppendTime topic: a replay keeps the original record's
 * timestamp, so only the broker's own time of each replayed record says when it was published.
 */
@RealInfrastructure
class BulkReplayIT {

    private static final String NONCE = "bj" + System.nanoTime();
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> LOG_APPEND_TIME = Map.of("message.timestamp.type", "LogAppendTime");
    /** Well formed (job- and 32 hex digits), never made. */
    private static final String UNKNOWN_JOB = "job-" + "0".repeat(32);

    /**
     * Each scenario's source topic (by name, with its topic config) and its DLQ, made before the service starts: its ingest
     * reads DLQ topics by pattern, and one made later is found only at the consumer's next metadata refresh (up to 30 s).
     */
    private static final Map<String, Map<String, String>> SCENARIOS = Map.of(
            "rate", LOG_APPEND_TIME, "cancel", LOG_APPEND_TIME, "switch", LOG_APPEND_TIME, "overlap", LOG_APPEND_TIME,
            "canary", Map.of(), "dry", Map.of());

    private static KafkaBroker broker;
    private static ConfigurableApplicationContext app;
    private static JdbcTemplate jdbc;
    private static final List<OrdersService> services = new ArrayList<>();

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker kafka) throws Exception {
        broker = kafka;
        for (Map.Entry<String, Map<String, String>> scenario : SCENARIOS.entrySet()) {
            IngestLedger.createTopic(broker, "it-" + NONCE + "-" + scenario.getKey(), 2, scenario.getValue());
            IngestLedger.createTopic(broker, "it-" + NONCE + "-" + scenario.getKey() + ".dlq", 2, Map.of());
        }
        app = RunningApp.start(database, broker, Map.of(
                "dlqdesk.ingest.topic-pattern", "it-" + NONCE + "-.*\\.dlq",
                "dlqdesk.ingest.group-id", "ingest-" + NONCE,
                "dlqdesk.events-topic", "it-" + NONCE + "-incident-events",
                // the outbox follows the runner closely, so publish times show the job's pace
                "dlqdesk.replay.poll-interval", "100ms",
                "dlqdesk.metrics.refresh-interval", "1s",
                "dlqdesk.metrics.query-timeout", "1s",
                "dlqdesk.rollback.observation-interval", "200ms"));
        jdbc = app.getBean(JdbcTemplate.class);
        Replays.setSwitch(app, true);
    }

    @AfterAll
    static void stop() {
        services.forEach(OrdersService::close);
        app.close();
    }

    /**
     * {@code count} records on a topic of their own that its consumer group's listener fails on and dead-letters: the incidents
     * ingest opened for them. CreateTime: a re-failure correlates only when the replay kept the original timestamp.
     */
    private static Scenario failing(String name, int count) throws Exception {
        String topic = scenarioTopic(name, Map.of());
        OrdersService service = new OrdersService(broker, topic, name + "-service");
        services.add(service);
        Set<String> eventIds = new HashSet<>();
        for (int i = 0; i < count; i++) {
            eventIds.add("evt-" + name + "-" + NONCE + "-" + i);
        }
        service.failing.addAll(eventIds);
        service.start();
        try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of())) {
            int i = 0;
            for (String eventId : eventIds) {
                producer.send(Replays.record(topic, i % 2, Instant.now().toEpochMilli(), ("order-" + i++).getBytes(StandardCharsets.UTF_8),
                        ("{\"order\":\"" + eventId + "\"}").getBytes(StandardCharsets.UTF_8), eventId));
            }
            producer.flush();
        }
        await().atMost(WAIT).until(() -> incidentsOf(topic).size() == count);
        return new Scenario(topic, service, eventIds, endOffsets(topic));
    }

    /**
     * {@code count} records on a topic of their own (with LogAppendTime, so the broker stamps each replay with its publish
     * time), each dead-lettered as its consumer group's listener would (written directly: faster than failing them one by one
     * through the listener), and that group's listener started past them, processing what is replayed to it.
     */
    private static Scenario deadLettered(String name, int count) throws Exception {
        String topic = scenarioTopic(name, LOG_APPEND_TIME);
        String group = name + "-service";
        Map<String, String> eventIds = FaultRuns.replayableFailures(broker, topic, topic + ".dlq", group, count);
        Map<TopicPartition, Long> ends = endOffsets(topic);
        try (var admin = broker.admin()) {
            Map<TopicPartition, org.apache.kafka.clients.consumer.OffsetAndMetadata> past = new HashMap<>();
            ends.forEach((partition, end) -> past.put(partition, new org.apache.kafka.clients.consumer.OffsetAndMetadata(end)));
            admin.alterConsumerGroupOffsets(group, past).all().get(30, TimeUnit.SECONDS);
        }
        OrdersService service = new OrdersService(broker, topic, group);
        services.add(service);
        service.start();
        await().atMost(WAIT).until(() -> incidentsOf(topic).size() == count);
        return new Scenario(topic, service, new HashSet<>(eventIds.values()), ends);
    }

    /** The source topic of a scenario of {@link #SCENARIOS}, made at start with {@code config}. */
    private static String scenarioTopic(String name, Map<String, String> config) {
        if (!config.equals(SCENARIOS.get(name))) {
            throw new IllegalStateException("scenario " + name + ": its topics must be made before the service starts, with " + config
                    + " (add it to SCENARIOS)");
        }
        return "it-" + NONCE + "-" + name;
    }

    private record Scenario(String topic, OrdersService service, Set<String> eventIds, Map<TopicPartition, Long> endsBeforeReplay) {
    }

    @Test
    void fiveHundredIncidentsAtFiftyPerSecondArePublishedAtThatPaceAndProgressAlwaysAddsUp() throws Exception {
        Scenario orders = deadLettered("rate", 500); // the fix is deployed: the listener processes what is replayed

        JsonNode created = create("{\"reason\":\"price service fixed\",\"filter\":{\"topic\":\"" + orders.topic()
                + "\"},\"rate\":50,\"maxInFlight\":200}");
        String job = created.path("jobId").asText();
        assertThat(created.path("progress").path("selected").asInt()).isEqualTo(500);

        List<String> violations = new ArrayList<>();
        JsonNode[] last = {created};
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
            JsonNode view = job(job);
            if (view == null) {
                return false;
            }
            violations.addAll(progressViolations(last[0], view));
            last[0] = view;
            return "COMPLETED".equals(view.path("status").asText()) && view.path("progress").path("published").asInt() == 500;
        });
        assertThat(violations).as("progress that did not add up").isEmpty();

        List<ConsumerRecord<byte[], byte[]>> replays = replaysOn(orders, 500);
        List<Long> times = firstPerIncident(replays).values().stream().sorted().toList();
        assertThat(times).hasSize(500);
        double perSecond = (times.size() - 1) * 1000.0 / (times.get(times.size() - 1) - times.get(0));
        assertThat(perSecond).as("publish rate from the replayed records' broker timestamps").isBetween(40.0, 60.0);

        for (String incident : incidentsOf(orders.topic())) {
            assertThat(Replays.eventsIn(jdbc, incident, "ReplayRequested")).as(incident).isEqualTo(1);
        }
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM domain_event_entry WHERE payload_type LIKE '%.ReplayRequested'"
                + " AND CAST(meta_data AS CHAR) LIKE ?", Integer.class, "%\"dlqdesk-replay-job\":\"" + job + "\"%"))
                .as("requests that name the job in their metadata").isEqualTo(500);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM snapshot_event_entry WHERE aggregate_identifier = ?", Integer.class, job))
                .as("the job is loaded from a snapshot, not from its ~1,500 events").isPositive();
        await().atMost(WAIT).until(() -> orders.eventIds().stream().allMatch(id -> orders.service().effectsOf(id) == 1));

        // job events reach the incident-events topic like the incidents' own
        await().atMost(WAIT).until(() -> eventsTopicTypesOf(job).containsAll(List.of("ReplayJobCreated", "JobReplayClaimed",
                "JobReplayRequested", "JobReplayDecided", "ReplayJobCompleted")));
    }

    @Test
    void afterACancelNothingMoreIsRequestedAndTheRestStayUnrequested() throws Exception {
        Scenario orders = deadLettered("cancel", 200);
        String job = create("{\"reason\":\"replay the cancel batch\",\"filter\":{\"topic\":\"" + orders.topic() + "\"},\"rate\":20}")
                .path("jobId").asText();
        await().atMost(WAIT).until(() -> requestedBy(orders.topic()).size() >= 40);

        HttpResponse<String> cancel = RunningApp.post(app, "/api/v1/replay-jobs/" + job + "/cancel", "operator", "{\"reason\":\"wrong batch\"}");
        assertThat(cancel.statusCode()).as(cancel.body()).isEqualTo(204);
        long cancelledAt = jdbc.queryForObject("SELECT global_index FROM domain_event_entry WHERE aggregate_identifier = ?"
                + " AND payload_type LIKE '%.ReplayJobCancelled'", Long.class, job);

        JsonNode view = await().atMost(WAIT).until(() -> job(job), v -> v != null && "CANCELLED".equals(v.path("status").asText())
                && v.path("progress").path("published").asInt() == v.path("progress").path("requested").asInt());
        int requested = view.path("progress").path("requested").asInt();
        Map<String, Long> requestedAt = requestedBy(orders.topic());
        assertThat(requestedAt).hasSize(requested);
        assertThat(requestedAt.values()).as("every request was stored before the cancel").allMatch(index -> index < cancelledAt);
        assertThat(view.path("progress").path("remaining").asInt()).as("left un-requested").isEqualTo(200 - requested).isPositive();

        // on the topic: the replays of exactly the incidents requested before the cancel, and nothing after them
        await().atMost(WAIT).until(() -> firstPerIncident(replaysOn(orders, requested)).keySet().equals(requestedAt.keySet()));
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
                .until(() -> firstPerIncident(replaysOn(orders, requested)).keySet().equals(requestedAt.keySet())
                        && requestedBy(orders.topic()).size() == requested);
        HttpResponse<String> again = RunningApp.post(app, "/api/v1/replay-jobs/" + job + "/resume", "operator", "{\"reason\":\"oops\"}");
        assertThat(again.statusCode()).as("a cancelled job cannot be resumed").isEqualTo(409);
        assertThat(JSON.readTree(again.body()).path("code").asText()).isEqualTo("NOT_PAUSED");

        List<JsonNode> audit = List.copyOf(iterate(JSON.readTree(RunningApp.get(app, "/api/v1/audit?principal=operator", "viewer",
                RunningApp.PASSWORD).body()).path("items")));
        assertThat(audit).anySatisfy(entry -> {
            assertThat(entry.path("incidentId").asText()).isEqualTo(job);
            assertThat(entry.path("eventType").asText()).isEqualTo("ReplayJobCancelled");
            assertThat(entry.path("reason").asText()).isEqualTo("wrong batch");
        });
    }

    @Test
    void aJobPausesAfterItsCanaryAndStopsItselfWhenTheConsumerKeepsFailing() throws Exception {
        Scenario orders = failing("canary", 60); // the consumer is still broken
        String job = create("{\"reason\":\"try the fix\",\"filter\":{\"topic\":\"" + orders.topic()
                + "\"},\"rate\":20,\"canary\":5,\"maxRefailureRate\":0.2}").path("jobId").asText();

        JsonNode canary = await().atMost(WAIT).until(() -> job(job), v -> v != null && "PAUSED".equals(v.path("status").asText()));
        assertThat(canary.path("pauseReason").asText()).isEqualTo("CANARY");
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(() -> requestedBy(orders.topic()).size() == 5);

        // a paused job holds a rollback back
        HttpResponse<String> readiness = RunningApp.get(app, "/api/v1/rollback-readiness", "deployer", RunningApp.PASSWORD);
        assertThat(readiness.statusCode()).isEqualTo(409);
        assertThat(iterate(JSON.readTree(readiness.body()).path("conditions"))).anySatisfy(condition -> {
            assertThat(condition.path("condition").asText()).isEqualTo("NO_REPLAY_JOB_ACTIVE");
            assertThat(condition.path("status").asText()).isEqualTo("NOT_MET");
            assertThat(condition.path("observed").path("activeJobs").toString()).contains(job, "PAUSED");
        });
        await().atMost(WAIT).until(() -> RunningApp.get(app, "/actuator/prometheus", "metrics", RunningApp.PASSWORD).body()
                .lines().anyMatch(line -> line.startsWith("dlq_replay_jobs{status=\"PAUSED\"}") && !line.endsWith(" 0.0")));
        await().atMost(WAIT).until(() -> job(job).path("progress").path("refailed").asInt() == 5);

        HttpResponse<String> resume = RunningApp.post(app, "/api/v1/replay-jobs/" + job + "/resume", "operator", "{\"reason\":\"canary looked fine\"}");
        assertThat(resume.statusCode()).as(resume.body()).isEqualTo(204);
        JsonNode stopped = await().atMost(WAIT).until(() -> job(job), v -> v != null && "PAUSED".equals(v.path("status").asText())
                && "REFAILURE_RATE".equals(v.path("pauseReason").asText()));
        JsonNode progress = stopped.path("progress");
        assertThat(progress.path("published").asInt()).isGreaterThanOrEqualTo(10);
        // the counts move on after the pause (replays already requested still publish and fail again): the job's own
        // record of why it paused is what it judged on; the audit's processor may be a batch behind the job's view
        List<JsonNode> paused = new ArrayList<>();
        await().atMost(WAIT).untilAsserted(() -> {
            paused.clear();
            paused.addAll(iterate(JSON.readTree(RunningApp.get(app, "/api/v1/audit?principal=replay-job", "viewer",
                    RunningApp.PASSWORD).body()).path("items")).stream().filter(entry -> entry.path("incidentId").asText().equals(job)).toList());
            assertThat(paused).extracting(entry -> entry.path("detail").asText()).containsExactlyInAnyOrder("PAUSED (CANARY)", "PAUSED (REFAILURE_RATE)");
        });
        java.util.regex.Matcher judged = java.util.regex.Pattern.compile(
                "(\\d+) of (\\d+) published replays failed again \\(more than 0.2\\): the consumer is still broken")
                .matcher(paused.stream().map(entry -> entry.path("reason").asText()).filter(reason -> reason.contains("failed again"))
                        .findFirst().orElse(""));
        assertThat(judged.matches()).as("the job's reason for its own pause").isTrue();
        int refailedThen = Integer.parseInt(judged.group(1));
        int publishedThen = Integer.parseInt(judged.group(2));
        assertThat(publishedThen).isGreaterThanOrEqualTo(10);
        assertThat((double) refailedThen).isGreaterThan(0.2 * publishedThen);
        assertThat(progress.path("remaining").asInt()).as("stopped before the DLQ fills again").isPositive();
        int requested = requestedBy(orders.topic()).size();
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(() -> requestedBy(orders.topic()).size() == requested);

        assertThat(RunningApp.post(app, "/api/v1/replay-jobs/" + job + "/cancel", "operator", "{\"reason\":\"consumer still broken\"}")
                .statusCode()).isEqualTo(204);
    }

    @Test
    void aDryRunCountsWhatWouldBeRequestedAndRefusedPerPartitionAndRecordsNothing() throws Exception {
        Scenario orders = failing("dry", 6);
        List<String> incidents = incidentsOf(orders.topic());
        String closed = incidents.get(0);
        assertThat(RunningApp.post(app, "/api/v1/incidents/" + closed + "/acknowledge", "operator", "{\"reason\":\"mine\"}").statusCode()).isEqualTo(204);
        assertThat(RunningApp.post(app, "/api/v1/incidents/" + closed + "/discard", "operator", "{\"reason\":\"obsolete\"}").statusCode()).isEqualTo(204);
        String ofTheseIncidents = "SELECT COUNT(*) FROM domain_event_entry WHERE aggregate_identifier IN ("
                + String.join(", ", Collections.nCopies(incidents.size(), "?")) + ")";
        long eventsBefore = jdbc.queryForObject(ofTheseIncidents, Long.class, incidents.toArray());
        long jobEventsBefore = jdbc.queryForObject("SELECT COUNT(*) FROM domain_event_entry WHERE payload_type LIKE '%.ReplayJobCreated'", Long.class);
        long jobsBefore = JSON.readTree(RunningApp.get(app, "/api/v1/replay-jobs", "viewer", RunningApp.PASSWORD).body()).path("total").asLong();

        HttpResponse<String> response = RunningApp.post(app, "/api/v1/replay-jobs", "operator",
                "{\"reason\":\"how many?\",\"dryRun\":true,\"filter\":{\"topic\":\"" + orders.topic() + "\"}}");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode dryRun = JSON.readTree(response.body());
        assertThat(dryRun.path("selected").asInt()).isEqualTo(6);
        assertThat(dryRun.path("wouldRequest").asInt()).isEqualTo(5);
        assertThat(dryRun.path("wouldRefuse").asInt()).isEqualTo(1);
        assertThat(dryRun.path("refusedBy").path("INCIDENT_CLOSED").asInt()).isEqualTo(1);
        int perPartition = 0;
        for (JsonNode partition : dryRun.path("byPartition")) {
            assertThat(partition.path("topic").asText()).isEqualTo(orders.topic());
            perPartition += partition.path("wouldRequest").asInt() + partition.path("wouldRefuse").asInt();
        }
        assertThat(perPartition).isEqualTo(6);

        assertThat(jdbc.queryForObject(ofTheseIncidents, Long.class, incidents.toArray())).as("nothing recorded on the incidents")
                .isEqualTo(eventsBefore);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM domain_event_entry WHERE payload_type LIKE '%.ReplayJobCreated'", Long.class))
                .as("no job created").isEqualTo(jobEventsBefore);
        assertThat(JSON.readTree(RunningApp.get(app, "/api/v1/replay-jobs", "viewer", RunningApp.PASSWORD).body()).path("total").asLong())
                .isEqualTo(jobsBefore);
    }

    @Test
    void badRequestsAreProblemsThatSayWhatWasWrong() throws Exception {
        String nowhere = "it-" + NONCE + "-nowhere";
        assertProblem(RunningApp.post(app, "/api/v1/replay-jobs", "operator", "{\"reason\":\"x\",\"filter\":{\"topic\":\"" + nowhere + "\"}}"),
                422, "urn:dlqdesk:problem:empty-selection");
        assertProblem(RunningApp.post(app, "/api/v1/replay-jobs", "operator", "{\"reason\":\"x\",\"filter\":{\"topic\":\"t\"},\"rate\":501}"),
                400, "urn:dlqdesk:problem:invalid-input");
        assertProblem(RunningApp.post(app, "/api/v1/replay-jobs", "operator", "{\"reason\":\"x\",\"filter\":{\"topic\":\"t\"},\"rate\":0}"),
                400, "urn:dlqdesk:problem:invalid-input");
        assertProblem(RunningApp.post(app, "/api/v1/replay-jobs", "operator", "{\"filter\":{\"topic\":\"t\"}}"),
                400, "urn:dlqdesk:problem:invalid-input");
        assertProblem(RunningApp.post(app, "/api/v1/replay-jobs", "operator", "{\"reason\":\"x\",\"filter\":{\"exceptionGroup\":\"XYZ\"}}"),
                400, "urn:dlqdesk:problem:invalid-input");
        assertProblem(RunningApp.post(app, "/api/v1/replay-jobs", "operator", "{\"reason\":\"x\",\"filter\":{\"status\":\"GONE\"}}"),
                400, "urn:dlqdesk:problem:invalid-input");
        assertProblem(RunningApp.post(app, "/api/v1/replay-jobs", "operator", "{\"reason\":\"x\",\"filter\":{},\"incidentIds\":[]}"),
                400, "urn:dlqdesk:problem:invalid-input");
        String unknown = "inc-" + "0".repeat(32);
        HttpResponse<String> unknownIds = RunningApp.post(app, "/api/v1/replay-jobs", "operator",
                "{\"reason\":\"x\",\"incidentIds\":[\"" + unknown + "\"]}");
        assertProblem(unknownIds, 400, "urn:dlqdesk:problem:invalid-input");
        assertThat(JSON.readTree(unknownIds.body()).path("unknownIncidentIds").toString()).contains(unknown);
        assertProblem(RunningApp.get(app, "/api/v1/replay-jobs/" + UNKNOWN_JOB, "viewer", RunningApp.PASSWORD), 404, "urn:dlqdesk:problem:not-found");
        assertProblem(RunningApp.post(app, "/api/v1/replay-jobs/" + UNKNOWN_JOB + "/pause", "operator", "{\"reason\":\"x\"}"), 404,
                "urn:dlqdesk:problem:not-found");
        assertProblem(RunningApp.get(app, "/api/v1/replay-jobs/" + "j".repeat(37), "viewer", RunningApp.PASSWORD), 400,
                "urn:dlqdesk:problem:invalid-input");
    }

    /** A job id in a URL is one the API makes (job- and 32 hex digits); an incident's id is no job's, and no 500. */
    @Test
    void aJobIdInAUrlIsReadAsTheApiMakesThemAndAnIncidentsIdNamesNoJob() throws Exception {
        String incident = RunningApp.openIncident(app, new FailureKey("it-" + NONCE + "-ids", 0, 1, "billing"), Instant.now()).value();
        for (String action : List.of("pause", "resume", "cancel")) {
            assertProblem(RunningApp.post(app, "/api/v1/replay-jobs/" + incident + "/" + action, "operator", "{\"reason\":\"x\"}"), 400,
                    "urn:dlqdesk:problem:invalid-input");
        }
        assertProblem(RunningApp.get(app, "/api/v1/replay-jobs/" + incident, "viewer", RunningApp.PASSWORD), 400, "urn:dlqdesk:problem:invalid-input");
        assertProblem(RunningApp.get(app, "/api/v1/replay-jobs/job-none", "viewer", RunningApp.PASSWORD), 400, "urn:dlqdesk:problem:invalid-input");
        assertProblem(RunningApp.post(app, "/api/v1/replay-jobs/JOB-" + "A".repeat(32) + "/pause", "operator", "{\"reason\":\"x\"}"), 400,
                "urn:dlqdesk:problem:invalid-input");
        assertProblem(RunningApp.post(app, "/api/v1/replay-jobs/" + UNKNOWN_JOB + "/cancel", "operator", "{\"reason\":\"x\"}"), 404,
                "urn:dlqdesk:problem:not-found");
    }

    /** Below the API: a job command naming an incident finds no job, it does not read the incident's events as a job's. */
    @Test
    void aJobCommandNamingAnIncidentFindsNoJob() {
        String incident = RunningApp.openIncident(app, new FailureKey("it-" + NONCE + "-ids", 0, 2, "billing"), Instant.now()).value();
        assertThatThrownBy(() -> app.getBean(CommandGateway.class).sendAndWait(new PauseReplayJobCommand(new ReplayJobId(incident),
                new OperatorAction("operator", "x", Instant.now())))).isInstanceOf(AggregateNotFoundException.class);
    }

    /**
     * The emergency brake holds a job, it does not burn it: while the switch is off nothing is asked (no incident refuses
     * REPLAY_SWITCH_OFF), the job stays RUNNING and holds the rollback check, and it goes on when the switch is on again.
     */
    @Test
    void whileTheSwitchIsOffAJobAsksNothingStaysRunningAndGoesOnWhenItIsOnAgain() throws Exception {
        Scenario orders = deadLettered("switch", 60);
        String job = create("{\"reason\":\"replay after the fix\",\"filter\":{\"topic\":\"" + orders.topic() + "\"},\"rate\":5}")
                .path("jobId").asText();
        await().atMost(WAIT).until(() -> requestedBy(orders.topic()).size() >= 5);
        try {
            Replays.setSwitch(app, false);
            // requests prepared a moment before the switch went off may still land (as a single replay may); then nothing
            int[] last = {-1};
            await().atMost(WAIT).pollInterval(Duration.ofSeconds(2)).until(() -> {
                int now = requestedBy(orders.topic()).size();
                boolean still = now == last[0];
                last[0] = now;
                return still;
            });
            int held = last[0];
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> requestedBy(orders.topic()).size() == held);
            assertThat(held).as("held mid-job").isLessThan(60);

            JsonNode view = await().atMost(WAIT).until(() -> job(job), v -> v.path("progress").path("requested").asInt() == held);
            assertThat(view.path("status").asText()).isEqualTo("RUNNING");
            assertThat(view.path("progress").path("refused").asInt()).as(view.toString()).isZero();
            assertThat(view.path("progress").path("remaining").asInt()).isEqualTo(60 - held);
            for (String incident : incidentsOf(orders.topic())) {
                assertThat(Replays.eventsIn(jdbc, incident, "ReplayRejected")).as("refusals of %s", incident).isZero();
            }
            HttpResponse<String> readiness = RunningApp.get(app, "/api/v1/rollback-readiness", "deployer", RunningApp.PASSWORD);
            assertThat(readiness.statusCode()).isEqualTo(409);
            assertThat(iterate(JSON.readTree(readiness.body()).path("conditions"))).anySatisfy(condition -> {
                assertThat(condition.path("condition").asText()).isEqualTo("NO_REPLAY_JOB_ACTIVE");
                assertThat(condition.path("status").asText()).isEqualTo("NOT_MET");
                assertThat(condition.path("observed").path("activeJobs").toString()).contains(job, "RUNNING");
            });
        } finally {
            Replays.setSwitch(app, true);
        }
        JsonNode done = await().atMost(WAIT).until(() -> job(job), v -> v != null && "COMPLETED".equals(v.path("status").asText()));
        assertThat(done.path("progress").path("requested").asInt()).isEqualTo(60);
        assertThat(done.path("progress").path("refused").asInt()).isZero();
    }

    /**
     * A job cannot select incidents of a job with work left (a retried POST would replay them all again): 409 naming the job;
     * once that job ended, the same selection is a new job.
     */
    @Test
    void aSelectionHoldingIncidentsOfAJobWithWorkLeftIsAConflictUntilThatJobEnded() throws Exception {
        Scenario orders = deadLettered("overlap", 10);
        String body = "{\"reason\":\"replay the overlap batch\",\"filter\":{\"topic\":\"" + orders.topic() + "\"},\"rate\":5,\"canary\":1}";
        String first = create(body).path("jobId").asText();
        await().atMost(WAIT).until(() -> job(first), v -> v != null && "PAUSED".equals(v.path("status").asText()));
        await().atMost(WAIT).until(() -> FaultRuns.count(jdbc, "SELECT COUNT(*) FROM replay_job_run WHERE job_id = ? AND status = 'PAUSED'", first) == 1);

        HttpResponse<String> again = RunningApp.post(app, "/api/v1/replay-jobs", "operator", body);
        assertProblem(again, 409, "urn:dlqdesk:problem:conflict");
        JsonNode problem = JSON.readTree(again.body());
        assertThat(problem.path("code").asText()).isEqualTo("SELECTION_IN_ACTIVE_JOB");
        assertThat(problem.path("activeJobs").toString()).contains(first);
        assertThat(problem.path("incidentIds")).hasSize(10);
        String oneOfThem = incidentsOf(orders.topic()).get(3);
        assertProblem(RunningApp.post(app, "/api/v1/replay-jobs", "operator", "{\"reason\":\"just this one\",\"incidentIds\":[\"" + oneOfThem
                + "\"]}"), 409, "urn:dlqdesk:problem:conflict");
        assertThat(RunningApp.post(app, "/api/v1/replay-jobs", "operator", "{\"reason\":\"how many?\",\"dryRun\":true,\"filter\":{\"topic\":\""
                + orders.topic() + "\"}}").statusCode()).as("a dry run records nothing: allowed").isEqualTo(200);

        assertThat(RunningApp.post(app, "/api/v1/replay-jobs/" + first + "/cancel", "operator", "{\"reason\":\"retry it whole\"}").statusCode())
                .isEqualTo(204);
        await().atMost(WAIT).until(() -> FaultRuns.count(jdbc, "SELECT COUNT(*) FROM replay_job_run WHERE job_id = ? AND status = 'CANCELLED'"
                + " AND ended_at IS NOT NULL", first) == 1); // from when its rows are kept for dlqdesk.replay.jobs.keep-ended
        String second = create(body).path("jobId").asText();
        assertThat(second).isNotEqualTo(first);
        assertThat(RunningApp.post(app, "/api/v1/replay-jobs/" + second + "/cancel", "operator", "{\"reason\":\"done looking\"}").statusCode())
                .isEqualTo(204);
    }

    private static void assertProblem(HttpResponse<String> response, int status, String type) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(value -> assertThat(value).startsWith("application/problem+json"));
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.path("type").asText()).isEqualTo(type);
        assertThat(problem.path("detail").asText()).isNotBlank();
    }

    /** Counts never go down, and they add up: selected = requested + refused + remaining, decided ≤ requested. */
    private static List<String> progressViolations(JsonNode before, JsonNode now) {
        List<String> wrong = new ArrayList<>();
        JsonNode p = now.path("progress");
        int requested = p.path("requested").asInt();
        int refused = p.path("refused").asInt();
        if (p.path("selected").asInt() != requested + refused + p.path("remaining").asInt()) {
            wrong.add("selected != requested + refused + remaining: " + p);
        }
        if (p.path("published").asInt() + p.path("publishFailed").asInt() + p.path("publishUnknown").asInt() > requested) {
            wrong.add("more decided than requested: " + p);
        }
        for (String count : List.of("requested", "refused", "published", "publishFailed", "refailed")) {
            if (p.path(count).asInt() < before.path("progress").path(count).asInt()) {
                wrong.add(count + " went down: " + before.path("progress") + " -> " + p);
            }
        }
        return wrong;
    }

    private static JsonNode create(String body) throws Exception {
        HttpResponse<String> response = RunningApp.post(app, "/api/v1/replay-jobs", "operator", body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        JsonNode job = JSON.readTree(response.body());
        assertThat(response.headers().firstValue("Location")).hasValue("/api/v1/replay-jobs/" + job.path("jobId").asText());
        assertThat(job.path("status").asText()).isEqualTo("RUNNING");
        return job;
    }

    /** The job's view, or null while the read model does not have it yet. */
    private static JsonNode job(String job) throws Exception {
        HttpResponse<String> response = RunningApp.get(app, "/api/v1/replay-jobs/" + job, "viewer", RunningApp.PASSWORD);
        return response.statusCode() == 404 ? null : JSON.readTree(response.body());
    }

    private static List<String> incidentsOf(String topic) {
        return jdbc.queryForList("SELECT incident_id FROM incident_summary WHERE topic = ?", String.class, topic);
    }

    /** The topic's incidents with a ReplayRequested event, and its position in the event store. */
    private static Map<String, Long> requestedBy(String topic) {
        List<String> incidents = incidentsOf(topic);
        Map<String, Long> requested = new HashMap<>();
        jdbc.query("SELECT aggregate_identifier, global_index FROM domain_event_entry WHERE payload_type LIKE '%.ReplayRequested'"
                        + " AND aggregate_identifier IN (" + String.join(", ", Collections.nCopies(incidents.size(), "?")) + ")",
                row -> {
                    requested.put(row.getString("aggregate_identifier"), row.getLong("global_index"));
                }, incidents.toArray());
        return requested;
    }

    private static Map<TopicPartition, Long> endOffsets(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            List<TopicPartition> partitions = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
            return consumer.endOffsets(partitions);
        }
    }

    /** The replayed records on the scenario's topic (since before its job), reading until {@code atLeast} arrived or a few quiet seconds. */
    private static List<ConsumerRecord<byte[], byte[]>> replaysOn(Scenario scenario, int atLeast) {
        List<ConsumerRecord<byte[], byte[]>> replays = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            consumer.assign(scenario.endsBeforeReplay().keySet());
            scenario.endsBeforeReplay().forEach(consumer::seek);
            Map<TopicPartition, Long> ends = consumer.endOffsets(scenario.endsBeforeReplay().keySet());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < deadline && !(replays.size() >= atLeast && caughtUp(consumer, ends))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.headers().lastHeader(ReplayHeaders.ROOT_INCIDENT_ID) != null) {
                        replays.add(record);
                    }
                }
            }
        }
        return replays;
    }

    private static boolean caughtUp(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends) {
        return ends.entrySet().stream().allMatch(end -> consumer.position(end.getKey()) >= end.getValue());
    }

    /** Incident id → broker timestamp of its first replayed record (publishing is at least once). */
    private static Map<String, Long> firstPerIncident(List<ConsumerRecord<byte[], byte[]>> replays) {
        return replays.stream().collect(Collectors.toMap(record -> Replays.header(record, ReplayHeaders.ROOT_INCIDENT_ID), ConsumerRecord::timestamp,
                Math::min));
    }

    /** The event types of the job's events on the incident-events topic. */
    private static Set<String> eventsTopicTypesOf(String job) {
        Set<String> types = new HashSet<>();
        String topic = "it-" + NONCE + "-incident-events";
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < deadline && !caughtUp(consumer, ends)) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.value() != null && new String(record.value(), StandardCharsets.UTF_8).contains(job)) {
                        record.headers().forEach(header -> {
                            if (header.value() == null) {
                                return;
                            }
                            String value = new String(header.value(), StandardCharsets.UTF_8);
                            if (value.startsWith("io.dlqdesk.domain.api.")) {
                                types.add(value.substring("io.dlqdesk.domain.api.".length()));
                            }
                        });
                    }
                }
            }
        }
        return types;
    }

    private static KafkaConsumer<byte[], byte[]> consumer() {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static List<JsonNode> iterate(JsonNode array) {
        List<JsonNode> nodes = new ArrayList<>();
        array.forEach(nodes::add);
        return nodes;
    }
}
