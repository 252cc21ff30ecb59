package io.dlqdesk.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.job.ClaimJobReplayCommand;
import io.dlqdesk.domain.job.CreateReplayJobCommand;
import io.dlqdesk.domain.job.PauseReplayJobCommand;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.job.ReplayJobLimits;
import io.dlqdesk.domain.job.ResumeReplayJobCommand;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.LoggedEvents;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Webhooks end to end: the service ingests from the real broker into the real database, its processor writes the
 * deliveries, and real HTTP receivers in this test (JDK HttpServer on 127.0.0.1) take them. Five receivers: {@code fast}
 * (signed, generic JSON), {@code down} (signed; its port closed until the test opens it), {@code failing} (always 500),
 * {@code slow} (holds every request until the test lets go) and {@code chat} (the Slack preset). The signature is checked
 * here with the JDK's own HMAC, not with the service's code.
 */
@RealInfrastructure
class WebhookNotificationsIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String NONCE = "w" + System.nanoTime();
    private static final String ORDERS = Replays.ordersTopic(NONCE);
    private static final String DLQ = ORDERS + ".dlq";
    private static final String GROUP = "orders-service";
    private static final String CONSOLE = "https://desk.example.test";
    private static final String FAST_SECRET = "fast-secret-" + NONCE;
    private static final String DOWN_SECRET = "down-secret-" + NONCE;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final Receiver fast = new Receiver("fast");
    private static final Receiver down = new Receiver("down");
    private static final Receiver failing = new Receiver("failing");
    private static final Receiver slow = new Receiver("slow");
    private static final Receiver chat = new Receiver("chat");
    private static String databaseUrl;
    private static String databaseUser;
    private static String databasePassword;
    private static KafkaBroker broker;
    private static ConfigurableApplicationContext app;
    private static KafkaProducer<byte[], byte[]> producer;
    private static OrdersService orders;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker kafka) throws Exception {
        broker = kafka;
        databaseUrl = database.jdbcUrl();
        databaseUser = database.username();
        databasePassword = database.password();
        IngestLedger.createTopic(broker, ORDERS, 3, Map.of());
        IngestLedger.createTopic(broker, DLQ, 3, Map.of());
        failing.status = 500;
        slow.hold();
        for (Receiver receiver : List.of(fast, failing, slow, chat)) {
            receiver.start();
        }
        Map<String, Object> settings = new HashMap<>();
        settings.put("dlqdesk.notifications.console-base-url", CONSOLE);
        settings.put("dlqdesk.notifications.poll-interval", "200ms");
        settings.put("dlqdesk.notifications.initial-backoff", "200ms");
        settings.put("dlqdesk.notifications.max-backoff", "1s");
        // short, so the failing receiver's notifications are given up within the test (the others are delivered well before)
        settings.put("dlqdesk.notifications.retry-window", "10s");
        settings.put("dlqdesk.notifications.ingest-check-interval", "300ms");
        // every notification on its own here (a test sends 100 new groups): the rate limit is NotificationStormIT's
        settings.put("dlqdesk.notifications.rate-limit", 10_000);
        settings.put("dlqdesk.ingest.readiness-timeout", "3s");
        settings.put("dlqdesk.replay.poll-interval", "200ms");
        List<Receiver> receivers = List.of(fast, down, failing, slow, chat);
        for (int i = 0; i < receivers.size(); i++) {
            Receiver receiver = receivers.get(i);
            String prefix = "dlqdesk.notifications.webhooks[" + i + "].";
            settings.put(prefix + "name", receiver.name);
            settings.put(prefix + "url", "http://127.0.0.1:" + receiver.port + "/hooks/" + receiver.name);
            settings.put(prefix + "timeout", receiver == slow ? "5m" : "3s"); // slow: it holds its sender far longer than this test waits
        }
        settings.put("dlqdesk.notifications.webhooks[0].secret", FAST_SECRET);
        settings.put("dlqdesk.notifications.webhooks[1].secret", DOWN_SECRET);
        settings.put("dlqdesk.notifications.webhooks[4].preset", "slack");
        app = Replays.service(database, broker, NONCE, settings);
        producer = IngestLedger.producer(broker, Map.of());
        orders = new OrdersService(broker, ORDERS, GROUP);
    }

    @AfterAll
    static void stop() {
        slow.release();
        orders.close();
        producer.close();
        app.close();
        for (Receiver receiver : List.of(fast, down, failing, slow, chat)) {
            receiver.stop();
        }
    }

    @Test
    void aNewExceptionGroupIsAnnouncedOnceSignedToEveryReceiverAndReachesADownReceiverOnceItIsBackWhileAFailingOneHoldsNobodyBack()
            throws Exception {
        String exceptionClass = "com.example." + NONCE + ".PriceMissingException";
        for (int offset = 1; offset <= 3; offset++) { // one group: the numbers in the messages are normalised away
            send(offset % 3, offset, exceptionClass, "no price for order " + (4710 + offset));
        }
        Predicate<Request> ours = request -> request.json().path("facts").path("exceptionClass").asText().equals(exceptionClass);
        Predicate<Request> oursInSlack = request -> request.json().path("text").asText().contains(exceptionClass);

        await().atMost(WAIT).until(() -> fast.received(ours).size() >= 1 && chat.received(oursInSlack).size() >= 1);
        Request delivered = fast.received(ours).get(0);
        JsonNode body = delivered.json();
        String incident = body.path("incidentId").asText();
        assertThat(Set.of(id(1, 1), id(2, 2), id(0, 3))).as("the group's first incident").contains(incident);
        assertThat(body.path("event").asText()).isEqualTo("new-exception-group");
        assertThat(body.path("consoleUrl").asText()).isEqualTo(CONSOLE + "/console/incidents/" + incident);
        assertThat(body.path("desk").asText()).isEqualTo("dlq-incident-desk");
        assertThat(body.path("facts").path("message").asText()).isEqualTo("no price for order <n>");
        assertThat(body.path("facts").path("consumerGroup").asText()).isEqualTo(GROUP);
        assertThat(delivered.header("X-DlqDesk-Delivery")).isEqualTo(body.path("id").asText());
        assertThat(delivered.header("X-DlqDesk-Event")).isEqualTo("new-exception-group");
        assertSignedWith(FAST_SECRET, delivered);
        assertThat(signatureOf("not-the-secret", delivered)).as("a wrong key gives another signature").isNotEqualTo(delivered.header("X-DlqDesk-Signature"));

        JsonNode slack = chat.received(oursInSlack).get(0).json();
        assertThat(slack.path("blocks").get(0).path("text").path("type").asText()).isEqualTo("mrkdwn");
        assertThat(slack.path("blocks").get(0).path("text").path("text").asText()).contains("<" + CONSOLE + "/console/incidents/" + incident + "|");
        assertThat(chat.received(oursInSlack).get(0).header("X-DlqDesk-Signature")).as("no secret, no signature").isNull();
        // the record's text reaches Slack inert: the normalised "<n>" is no Slack control sequence, in the blocks nor in the fallback text
        assertThat(slack.path("text").asText()).doesNotContain("<n>").contains("&lt;n&gt;");
        assertThat(slack.path("blocks").toString()).doesNotContain("<n>");

        // the failing receiver fails at the same time (it is tried once per backoff, its pending notifications in turn) and held none of this back
        assertThat(status("failing", body.path("id").asText())).isEqualTo("PENDING");
        await().atMost(WAIT).until(() -> counter("dlq.notifications.failed_tries", "failing") >= 2);
        assertThat(status("failing", body.path("id").asText())).isEqualTo("PENDING");

        // the down receiver: tries fail while its port is closed; its notification waits, then it comes up and gets it
        await().atMost(WAIT).until(() -> counter("dlq.notifications.failed_tries", "down") >= 2);
        assertThat(status("down", body.path("id").asText())).isEqualTo("PENDING");
        down.start();
        await().atMost(WAIT).until(() -> !down.received(ours).isEmpty());
        assertSignedWith(DOWN_SECRET, down.received(ours).get(0));
        await().atMost(WAIT).until(() -> "DELIVERED".equals(status("down", body.path("id").asText())));
        assertThat(counter("dlq.notifications.delivered", "down")).isPositive();
        assertThat(counter("dlq.notifications.failed_tries", "down")).isGreaterThanOrEqualTo(2);

        // announced once: every delivery of this group, to any receiver, is the same notification (at least once, never two)
        Set<String> ids = fast.received(ours).stream().map(request -> request.json().path("id").asText()).collect(Collectors.toSet());
        assertThat(ids).hasSize(1);
    }

    @Test
    void aSlowReceiverDoesNotDelayIngest() throws Exception {
        int records = 100;
        String prefix = "com.example." + NONCE + ".slow";
        long start = System.nanoTime();
        for (int i = 0; i < records; i++) { // every record a group of its own: each one a notification for every receiver
            send(i % 3, 1000 + i, prefix + i + "Exception", "boom");
        }
        JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
        await().atMost(WAIT).until(() -> incidentsWithClassPrefix(jdbc, prefix) == records);
        Duration ingest = Duration.ofNanos(System.nanoTime() - start);
        assertThat(slow.answered.get()).as("the slow receiver has answered nothing so far").isZero();
        await().atMost(WAIT).until(() -> slow.started.get() >= 1);
        assertThat(ingest).as("ingest of " + records + " records while the slow receiver holds its requests").isLessThan(Duration.ofSeconds(60));
        System.out.println("ingest of " + records + " records with a receiver holding every request: " + ingest.toMillis() + " ms");
        // the processor kept up as well: every notification is written for the slow receiver too
        await().atMost(WAIT).until(() -> jdbc.queryForObject("SELECT COUNT(*) FROM notification_delivery WHERE receiver = 'slow' AND body LIKE ?",
                Integer.class, "%" + prefix + "%") == records);
        assertThat(slow.answered.get()).isZero();
        // and the other receivers are not held back by it: all delivered while it still holds its first request
        await().atMost(WAIT).until(() -> fast.received(request -> request.json().path("facts").path("exceptionClass").asText().startsWith(prefix))
                .stream().map(request -> request.json().path("id").asText()).distinct().count() == records);
        assertThat(slow.answered.get()).isZero();

        slow.release();
        await().atMost(WAIT).until(() -> jdbc.queryForObject("SELECT COUNT(*) FROM notification_delivery WHERE receiver = 'slow' AND body LIKE ?"
                + " AND status = 'DELIVERED'", Integer.class, "%" + prefix + "%") == records);
    }

    @Test
    void aReopenedIncidentIsNotifiedWithItsLink() throws Exception {
        String eventId = "evt-" + NONCE + "-reopen";
        orders.failing.add(eventId);
        orders.start();
        RecordMetadata sent = producer.send(Replays.record(ORDERS, 1, Instant.now().minusSeconds(60).toEpochMilli(),
                "order-r".getBytes(StandardCharsets.UTF_8), "{\"order\":\"r\"}".getBytes(StandardCharsets.UTF_8), eventId)).get(30, TimeUnit.SECONDS);
        String id = IncidentId.of(new FailureKey(ORDERS, 1, sent.offset(), GROUP)).value();
        await().atMost(WAIT).until(() -> Replays.incidentsOf(app, ORDERS).contains(id));
        orders.stop(); // the replay waits unconsumed until the incident is closed
        assertThat(RunningApp.post(app, "/api/v1/incidents/" + id + "/acknowledge", "operator", "{\"reason\":\"mine\"}").statusCode()).isEqualTo(204);
        assertThat(Replays.requestReplay(app, id).statusCode()).isEqualTo(202);
        await().atMost(WAIT).until(() -> Replays.events(app, id, "PublishResultRecorded") == 1);
        assertThat(RunningApp.post(app, "/api/v1/incidents/" + id + "/resolve", "operator", "{\"reason\":\"replayed\"}").statusCode()).isEqualTo(204);
        await().atMost(WAIT).until(() -> "RESOLVED".equals(Replays.statusOf(app, id)));
        orders.start(); // still failing: the replay fails again and reopens the incident

        Predicate<Request> reopened = request -> request.json().path("event").asText().equals("incident-reopened")
                && request.json().path("incidentId").asText().equals(id);
        await().atMost(WAIT).until(() -> !fast.received(reopened).isEmpty());
        JsonNode body = fast.received(reopened).get(0).json();
        assertThat(body.path("consoleUrl").asText()).isEqualTo(CONSOLE + "/console/incidents/" + id);
        assertThat(body.path("facts").path("previousStatus").asText()).isEqualTo("RESOLVED");
        assertThat(body.path("facts").path("topic").asText()).isEqualTo(ORDERS);
        assertThat(body.path("facts").path("consumerGroup").asText()).isEqualTo(GROUP);
        assertSignedWith(FAST_SECRET, fast.received(reopened).get(0));
        orders.stop();
    }

    @Test
    void aReceiverThatKeepsFailingPastTheRetryWindowHasItsNotificationGivenUpCountedAndLogged() throws Exception {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger senderLog = (Logger) LoggerFactory.getLogger("io.dlqdesk.notifications.delivery.WebhookSender");
        senderLog.addAppender(log);
        try {
            double givenUpBefore = counter("dlq.notifications.given_up", "failing");
            String exceptionClass = "com.example." + NONCE + ".GivenUpException";
            send(1, 7000, exceptionClass, "never taken");
            JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
            await().atMost(WAIT).until(() -> !jdbc.queryForList("SELECT notification_id FROM notification_delivery WHERE receiver = 'failing'"
                    + " AND body LIKE ?", String.class, "%" + exceptionClass + "%").isEmpty());
            String id = jdbc.queryForObject("SELECT notification_id FROM notification_delivery WHERE receiver = 'failing' AND body LIKE ?",
                    String.class, "%" + exceptionClass + "%");

            await().atMost(WAIT).until(() -> "GAVE_UP".equals(status("failing", id)));
            Map<String, Object> row = jdbc.queryForMap("SELECT tries, last_error, decided_at FROM notification_delivery WHERE receiver = 'failing'"
                    + " AND notification_id = ?", id);
            assertThat((Integer) row.get("tries")).isGreaterThanOrEqualTo(1);
            assertThat((String) row.get("last_error")).isEqualTo("HTTP 500");
            assertThat(row.get("decided_at")).isNotNull();
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(counter("dlq.notifications.given_up", "failing")).isGreaterThan(givenUpBefore);
                assertThat(LoggedEvents.snapshot(log)).anySatisfy(event -> {
                    assertThat(event.getLevel()).isEqualTo(Level.ERROR);
                    assertThat(event.getFormattedMessage()).startsWith("webhook failing GAVE UP on notification " + id + " (new-exception-group)");
                });
            });
            // the same notification, to a receiver that answers: delivered, not given up
            await().atMost(WAIT).until(() -> "DELIVERED".equals(status("fast", id)));
        } finally {
            senderLog.detachAppender(log);
        }
    }

    /** The job's own decisions are announced, an operator's pause is not (the same job: its events are handled in order). */
    @Test
    void aReplayJobThatPausesItselfAfterItsCanaryIsNotifiedAndAnOperatorsPauseIsNot() throws Exception {
        ReplayJobId job = new ReplayJobId("job-" + NONCE);
        CommandGateway commands = app.getBean(CommandGateway.class);
        Instant now = Instant.now();
        List<IncidentId> manifest = List.of(IncidentId.of(new FailureKey(ORDERS, 0, 9001, GROUP)), IncidentId.of(new FailureKey(ORDERS, 0, 9002, GROUP)),
                IncidentId.of(new FailureKey(ORDERS, 0, 9003, GROUP)));
        commands.sendAndWait(new CreateReplayJobCommand(job, "explicit list", manifest, new ReplayJobLimits(10, 5, 1, null),
                new OperatorAction("operator", "bulk replay after the fix", now)));
        commands.sendAndWait(new PauseReplayJobCommand(job, new OperatorAction("operator", "lunch", now)));
        commands.sendAndWait(new ResumeReplayJobCommand(job, new OperatorAction("operator", "back", now)));
        commands.sendAndWait(new ClaimJobReplayCommand(job, manifest.get(0), now)); // the canary of 1: the job pauses itself

        Predicate<Request> paused = request -> request.json().path("event").asText().equals("replay-job-paused")
                && request.json().path("facts").path("jobId").asText().equals(job.value());
        await().atMost(WAIT).until(() -> !fast.received(paused).isEmpty());
        assertThat(fast.received(paused)).allSatisfy(request -> {
            assertThat(request.json().path("facts").path("reason").asText()).isEqualTo("CANARY");
            assertThat(request.json().path("summary").asText()).contains(job.value()).contains("canary");
        });
        assertThat(app.getBean(JdbcTemplate.class).queryForObject("SELECT COUNT(*) FROM notification_delivery WHERE receiver = 'fast' AND body LIKE ?",
                Integer.class, "%" + job.value() + "%")).as("one notification: the canary's, not the operator's pause").isEqualTo(1);
    }

    @Test
    void aStalledIngestIsNotifiedAndSoIsItsRecovery() throws Exception {
        String instance = app.getBean(InstanceRegistry.class).instanceId();
        Instant before = Instant.now();
        try (Connection locker = DriverManager.getConnection(databaseUrl, databaseUser, databasePassword);
             Statement lock = locker.createStatement()) {
            lock.execute("LOCK TABLES domain_event_entry WRITE"); // the event store takes no append: records wait, none is written
            send(0, 5000, "com.example." + NONCE + ".StallException", "stuck");
            await().atMost(WAIT).until(() -> !fast.received(event("ingest-stalled", instance, before)).isEmpty());
            lock.execute("UNLOCK TABLES");
        }
        JsonNode stalled = fast.received(event("ingest-stalled", instance, before)).get(0).json();
        assertThat(stalled.path("facts").path("instance").asText()).isEqualTo(instance);
        assertThat(stalled.has("incidentId")).isFalse();
        assertThat(stalled.path("facts").path("inFlight").asInt()).isPositive();
        await().atMost(WAIT).until(() -> !fast.received(event("ingest-recovered", instance, before)).isEmpty());
        JsonNode recovered = fast.received(event("ingest-recovered", instance, before)).get(0).json();
        assertThat(recovered.path("facts").path("stalledSince").asText()).isEqualTo(stalled.path("facts").path("since").asText());
        assertThat(recovered.path("facts").path("reason").asText()).isEqualTo("ready");
        JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
        await().atMost(WAIT).until(() -> jdbc.queryForObject("SELECT COUNT(*) FROM notification_ingest_stall WHERE instance = ?", Integer.class,
                instance) == 0);
    }

    /** An instance replaced while its ingest was stalled never says it recovered: this one, alive, ends that stall for it. */
    @Test
    void aStallLeftOpenByAnInstanceThatIsGoneIsEndedByThisOne() throws Exception {
        String gone = "1@dlq-desk-replaced-" + NONCE + "/" + java.util.UUID.randomUUID(); // no row in service_instance: stopped, or long dead
        long since = Instant.now().minusSeconds(120).toEpochMilli();
        JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
        InstanceRegistry instances = app.getBean(InstanceRegistry.class);
        assertThat(instances.isAlive(instances.instanceId())).as("this instance, by its heartbeat").isTrue();
        assertThat(instances.isAlive(gone)).isFalse();
        jdbc.update("INSERT INTO notification_ingest_stall (instance, stalled_since_ms, recorded_at) VALUES (?, ?, UTC_TIMESTAMP(6))", gone, since);

        Predicate<Request> ended = request -> request.json().path("event").asText().equals("ingest-recovered")
                && request.json().path("facts").path("instance").asText().equals(gone);
        await().atMost(WAIT).until(() -> !fast.received(ended).isEmpty());
        Request delivered = fast.received(ended).get(0);
        assertThat(delivered.header("X-DlqDesk-Delivery")).isEqualTo("ingest-recovered:" + gone + ":" + since);
        assertThat(delivered.json().path("facts").path("reason").asText()).isEqualTo("instance-gone");
        assertThat(delivered.json().path("facts").path("stalledSince").asText()).isEqualTo(Instant.ofEpochMilli(since).toString());
        assertThat(delivered.json().path("facts").path("endedBy").asText()).isEqualTo(instances.instanceId());
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM notification_ingest_stall WHERE instance = ?", Integer.class, gone)).isZero();
    }

    private static Predicate<Request> event(String event, String instance, Instant notBefore) {
        return request -> request.json().path("event").asText().equals(event)
                && request.json().path("facts").path("instance").asText().equals(instance)
                && !Instant.parse(request.json().path("occurredAt").asText()).isBefore(notBefore.minusSeconds(1));
    }

    private static void send(int partition, long offset, String exceptionClass, String message) throws Exception {
        producer.send(DltRecord.failure(ORDERS, partition, offset, GROUP)
                .without("kafka_dlt-exception-cause-fqcn").header("kafka_dlt-exception-cause-fqcn", exceptionClass)
                .without("kafka_dlt-exception-message").header("kafka_dlt-exception-message", message)
                .to(DLQ, partition)).get(30, TimeUnit.SECONDS);
    }

    private static String id(int partition, long offset) {
        return IncidentId.of(new FailureKey(ORDERS, partition, offset, GROUP)).value();
    }

    private static int incidentsWithClassPrefix(JdbcTemplate jdbc, String prefix) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM domain_event_entry WHERE payload_type LIKE '%.IncidentOpened' AND payload LIKE ?",
                Integer.class, "%" + prefix + "%");
    }

    private static String status(String receiver, String notificationId) {
        return app.getBean(JdbcTemplate.class).queryForObject("SELECT status FROM notification_delivery WHERE receiver = ? AND notification_id = ?",
                String.class, receiver, notificationId);
    }

    private static int tries(String receiver, String notificationId) {
        List<Integer> tries = app.getBean(JdbcTemplate.class).queryForList(
                "SELECT tries FROM notification_delivery WHERE receiver = ? AND notification_id = ?", Integer.class, receiver, notificationId);
        return tries.isEmpty() ? 0 : tries.get(0);
    }

    private static double counter(String name, String receiver) {
        return app.getBean(MeterRegistry.class).get(name).tag("receiver", receiver).counter().count();
    }

    /** The signature as a receiver computes it: HMAC-SHA256 over "<timestamp>.<body>", hex, prefixed "sha256=". */
    private static String signatureOf(String secret, Request request) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((request.header("X-DlqDesk-Timestamp") + ".").getBytes(StandardCharsets.UTF_8));
        return "sha256=" + HexFormat.of().formatHex(mac.doFinal(request.body()));
    }

    private static void assertSignedWith(String secret, Request request) throws Exception {
        assertThat(request.header("X-DlqDesk-Signature")).isEqualTo(signatureOf(secret, request));
        long sentAt = Long.parseLong(request.header("X-DlqDesk-Timestamp"));
        assertThat(Math.abs(sentAt - request.receivedAt().getEpochSecond())).as("the signed timestamp is the sending time").isLessThanOrEqualTo(5);
    }

    record Request(Map<String, String> headers, byte[] body, Instant receivedAt) {

        String header(String name) {
            return headers.get(name.toLowerCase(java.util.Locale.ROOT));
        }

        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + new String(body, StandardCharsets.UTF_8), e);
            }
        }
    }

    /** A webhook receiver on a loopback port of its own, answering {@code status}; it may hold requests until released. */
    static final class Receiver {

        final String name;
        final int port = freePort();
        final List<Request> requests = new CopyOnWriteArrayList<>();
        final AtomicInteger started = new AtomicInteger();
        final AtomicInteger answered = new AtomicInteger();
        volatile int status = 204;
        private volatile CountDownLatch held = new CountDownLatch(0);
        private HttpServer server;
        private ExecutorService threads;

        Receiver(String name) {
            this.name = name;
        }

        void hold() {
            held = new CountDownLatch(1);
        }

        void release() {
            held.countDown();
        }

        synchronized void start() throws IOException {
            threads = Executors.newCachedThreadPool();
            server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 50);
            server.setExecutor(threads);
            server.createContext("/hooks/" + name, exchange -> {
                started.incrementAndGet();
                try {
                    held.await(6, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                byte[] body = exchange.getRequestBody().readAllBytes();
                Map<String, String> headers = new HashMap<>();
                exchange.getRequestHeaders().forEach((header, values) -> headers.put(header.toLowerCase(java.util.Locale.ROOT), values.get(0)));
                requests.add(new Request(headers, body, Instant.now()));
                exchange.sendResponseHeaders(status, -1);
                exchange.close();
                answered.incrementAndGet();
            });
            server.start();
        }

        synchronized void stop() {
            if (server != null) {
                server.stop(0);
                threads.shutdownNow();
            }
        }

        List<Request> received(Predicate<Request> which) {
            return requests.stream().filter(which).toList();
        }

        private static int freePort() {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
                return socket.getLocalPort();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
