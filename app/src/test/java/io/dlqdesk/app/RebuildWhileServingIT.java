package io.dlqdesk.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.projections.ReadModelSet;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A bulk rebuild of every read model while DLQ records keep arriving: the list and the counts served during it are the old
 * tables' (never fewer incidents than before it began), every record that arrived meanwhile is in the list after the swap,
 * and the rebuilt tables equal, row for row, the tables the processors build when reset and replayed from the start.
 */
@RealInfrastructure
class RebuildWhileServingIT {

    @RegisterExtension
    final FaultRun run = new FaultRun("rebuild");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int BEFORE = 600;
    private static final Duration WAIT = Duration.ofMinutes(3);

    @Test
    void rebuildsEveryReadModelBesideTheLiveOnesAndSwapsInTheSameRowsTheProcessorsBuild(TestDatabase database, KafkaBroker broker)
            throws Exception {
        String source = run.topic("orders");
        String dlqTopic = run.dlqTopic();
        IngestLedger.createTopic(broker, source, 2, Map.of());
        IngestLedger.createTopic(broker, dlqTopic, 2, Map.of());
        ConfigurableApplicationContext app = RunningApp.run(FaultRuns.service(database, broker, run, Map.of()));
        AtomicBoolean arriving = new AtomicBoolean(true);
        try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of())) {
            JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
            AtomicInteger sent = new AtomicInteger();
            for (int i = 0; i < BEFORE; i++) {
                fail(producer, source, dlqTopic, sent.getAndIncrement());
            }
            await().atMost(WAIT).until(() -> total(app, source) == BEFORE);

            // records keep arriving through every rebuild
            Thread storm = FaultRuns.daemon("storm", () -> {
                while (arriving.get()) {
                    try {
                        fail(producer, source, dlqTopic, sent.get());
                        sent.incrementAndGet(); // counted once its DLQ record is acknowledged
                    } catch (Exception e) {
                        if (arriving.get()) {
                            throw new IllegalStateException(e);
                        }
                    }
                    FaultRuns.pause(5);
                }
            });
            AtomicLong fewest = new AtomicLong(Long.MAX_VALUE);
            AtomicInteger pollsWhileBuilding = new AtomicInteger();
            for (ReadModelSet set : ReadModelSet.all()) {
                HttpResponse<String> started = RunningApp.post(app, "/api/v1/read-model-rebuilds", "admin",
                        "{\"processor\":\"" + set.processor() + "\",\"reason\":\"rebuild test\"}");
                assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
                String id = JSON.readTree(started.body()).path("id").asText();
                JsonNode done = await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> {
                    long listed = total(app, source);
                    JsonNode view = JSON.readTree(RunningApp.get(app, "/api/v1/read-model-rebuilds/" + id, "viewer", RunningApp.PASSWORD).body());
                    String phase = view.path("phase").asText();
                    if (!phase.equals("SWAPPING") && !phase.equals("COMPLETED") && !phase.equals("FAILED")) {
                        fewest.accumulateAndGet(listed, Math::min);
                        pollsWhileBuilding.incrementAndGet();
                    }
                    return view;
                }, view -> view.path("phase").asText().matches("COMPLETED|FAILED|CANCELLED"));
                assertThat(done.path("phase").asText()).as(done.toString()).isEqualTo("COMPLETED");
                assertThat(done.path("eventsRead").asLong()).as(done.toString()).isPositive();
            }
            arriving.set(false);
            storm.join(TimeUnit.SECONDS.toMillis(30));
            int all = sent.get();

            assertThat(pollsWhileBuilding.get()).as("the list was read while a rebuild was under way").isPositive();
            assertThat(fewest.get()).as("the list served during the rebuilds came from the old tables").isGreaterThanOrEqualTo(BEFORE);
            assertThat(all).as("records arrived during the rebuilds").isGreaterThan(BEFORE);
            await().atMost(WAIT).until(() -> total(app, source) == all);
            assertThat(RunningApp.get(app, "/api/v1/audit?principal=admin", "viewer", RunningApp.PASSWORD).body()).contains("ReadModelRebuildRequested");
            HttpResponse<String> page = ConsoleSession.signedIn(app, "viewer").get("/console/rebuilds");
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("COMPLETED", "incident-read-models", "rollback-facts", "replay-jobs", "rebuild test");

            // the same tables, built by the processors from the start
            awaitCaughtUp(app);
            Map<String, List<Map<String, Object>>> bulk = ReadModelTables.snapshot(jdbc);
            EventProcessingConfiguration processing = app.getBean(EventProcessingConfiguration.class);
            for (ReadModelSet set : ReadModelSet.all()) {
                StreamingEventProcessor processor = processing.eventProcessor(set.processor(), StreamingEventProcessor.class).orElseThrow();
                processor.shutDown();
                processor.resetTokens();
                processor.start();
            }
            // replaying from the start marks the processors replaying until an event past the reset arrives: compare until equal
            await().atMost(WAIT).untilAsserted(() -> {
                Map<String, List<Map<String, Object>>> replayed = ReadModelTables.snapshot(jdbc);
                for (String table : bulk.keySet()) {
                    assertThat(bulk.get(table)).as(table + ", bulk rebuild against the processor's build").isEqualTo(replayed.get(table));
                }
            });
            assertThat(bulk.get("incident_summary")).hasSizeGreaterThanOrEqualTo(all);
        } finally {
            arriving.set(false);
            app.close();
        }
    }

    private static void fail(KafkaProducer<byte[], byte[]> producer, String source, String dlqTopic, int i) throws Exception {
        String eventId = "evt-" + source + "-" + i;
        byte[] key = ("order-" + i).getBytes(StandardCharsets.UTF_8);
        byte[] value = ("{\"order\":" + i + "}").getBytes(StandardCharsets.UTF_8);
        RecordMetadata sent = producer.send(Replays.record(source, i % 2, Instant.now().toEpochMilli(), key, value, eventId))
                .get(30, TimeUnit.SECONDS);
        Replays.sendFailure(producer, sent, "orders-service", key, value, eventId, Instant.ofEpochMilli(sent.timestamp()), dlqTopic);
    }

    private static long total(ConfigurableApplicationContext app, String topic) throws Exception {
        HttpResponse<String> page = RunningApp.get(app, "/api/v1/incidents?size=1&topic=" + topic, "viewer", RunningApp.PASSWORD);
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        return JSON.readTree(page.body()).path("total").asLong();
    }

    private static void awaitCaughtUp(ConfigurableApplicationContext app) {
        EventProcessingConfiguration processing = app.getBean(EventProcessingConfiguration.class);
        await().atMost(WAIT).until(() -> ReadModelSet.all().stream().allMatch(set -> processing
                .eventProcessor(set.processor(), StreamingEventProcessor.class).orElseThrow().processingStatus().values().stream()
                .allMatch(status -> status.isCaughtUp() && !status.isReplaying())));
    }
}
