package io.dlqdesk.notifications.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import com.zaxxer.hikari.HikariDataSource;
import io.dlqdesk.notifications.Notification;
import io.dlqdesk.notifications.NotificationEvent;
import io.dlqdesk.notifications.NotificationProperties.Preset;
import io.dlqdesk.notifications.NotificationProperties.Webhook;
import io.dlqdesk.notifications.NotificationTables;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.FixedBackOff;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The rate limit per receiver and event against the real delivery table and a real HTTP receiver: up to the limit a
 * window's notifications are sent one by one, the rest in one message at the window's end that counts them; two
 * instances' senders of one receiver count them once.
 */
@RealInfrastructure
class RateLimitIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int LIMIT = 3;
    private static final Duration WINDOW = Duration.ofSeconds(3);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static TestDatabase database;

    private HikariDataSource dataSource;
    private JdbcTemplate jdbc;
    private final MeterRegistry meters = new SimpleMeterRegistry();
    private final List<WebhookSender> senders = new ArrayList<>();
    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    private HttpServer receiver;
    private Webhook webhook;
    private Deliveries deliveries;
    private NotificationMetrics metrics;

    @BeforeAll
    static void tables(TestDatabase testDatabase) throws Exception {
        database = testDatabase;
        NotificationTables.create(database);
    }

    @BeforeEach
    void start() throws IOException {
        dataSource = NotificationTables.dataSource(database);
        jdbc = new JdbcTemplate(dataSource);
        jdbc.update("DELETE FROM notification_delivery");
        jdbc.update("DELETE FROM notification_rate_window");
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 50);
        receiver.createContext("/hook", exchange -> {
            received.add(JSON.readTree(exchange.getRequestBody().readAllBytes()));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        webhook = new Webhook("limited", URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook"),
                Set.of(NotificationEvent.values()), null, Duration.ofSeconds(5), Preset.GENERIC);
        TransactionTemplate readCommitted = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        readCommitted.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        deliveries = new Deliveries(jdbc, readCommitted, List.of(webhook), new WebhookBody(null, "desk"), new RateLimit(LIMIT, WINDOW));
        metrics = new NotificationMetrics(meters, List.of(webhook));
    }

    @AfterEach
    void stop() {
        senders.forEach(WebhookSender::stop);
        receiver.stop(0);
        dataSource.close();
    }

    @Test
    void upToTheLimitEveryNotificationIsSentOnItsOwnAndNoSummaryFollows() {
        sender().start();
        for (int i = 0; i < LIMIT; i++) {
            enqueue(NotificationEvent.NEW_EXCEPTION_GROUP, "calm-" + i);
        }
        await().atMost(WAIT).until(() -> received.size() == LIMIT);
        assertThat(received).extracting(body -> body.path("id").asText()).containsExactlyInAnyOrder("n-calm-0", "n-calm-1", "n-calm-2");
        await().during(WINDOW.plusSeconds(1)).atMost(WINDOW.plusSeconds(10)).until(() -> received.size() == LIMIT);
        assertThat(coalesced()).isZero();
    }

    @Test
    void overTheLimitTheRestIsHeldAndSentAsOneMessageCountingThemWhenTheWindowEnds() {
        sender().start();
        int storm = 10;
        for (int i = 0; i < storm; i++) {
            enqueue(NotificationEvent.NEW_EXCEPTION_GROUP, "storm-" + i);
        }
        await().atMost(WAIT).until(() -> received.size() >= LIMIT);
        assertThat(received).extracting(body -> body.path("id").asText()).containsExactly("n-storm-0", "n-storm-1", "n-storm-2");

        await().atMost(WAIT).until(() -> received.size() == LIMIT + 1);
        JsonNode summary = received.get(LIMIT);
        assertThat(summary.path("event").asText()).isEqualTo("new-exception-group");
        assertThat(summary.path("facts").path("coalesced").asInt()).as("the count of the held ones").isEqualTo(storm - LIMIT);
        assertThat(summary.path("summary").asText()).contains(Integer.toString(storm - LIMIT)).contains("new exception groups")
                .contains("storm-3 summary"); // names the first held one
        assertThat(Instant.parse(summary.path("facts").path("firstAt").asText())).isBeforeOrEqualTo(Instant.parse(summary.path("facts")
                .path("lastAt").asText()));
        assertThat(coalesced()).isEqualTo(storm - LIMIT);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM notification_delivery WHERE status = 'COALESCED' AND coalesced_into = ?",
                Integer.class, summary.path("id").asText())).isEqualTo(storm - LIMIT);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM notification_delivery WHERE status = 'HELD'", Integer.class)).isZero();

        // the window over, the next one is sent on its own again; another event was never held back by this one
        enqueue(NotificationEvent.NEW_EXCEPTION_GROUP, "after");
        enqueue(NotificationEvent.INCIDENT_REOPENED, "other-event");
        await().atMost(WAIT).until(() -> received.size() == LIMIT + 3);
        assertThat(received.subList(LIMIT + 1, LIMIT + 3)).extracting(body -> body.path("id").asText())
                .containsExactlyInAnyOrder("n-after", "n-other-event");
    }

    @Test
    void twoInstancesSendersOfOneReceiverCountTheHeldOnesOnceInOneMessage() {
        sender().start();
        sender().start();
        int storm = 30;
        for (int i = 0; i < storm; i++) {
            enqueue(NotificationEvent.INCIDENT_REOPENED, "both-" + i);
        }
        await().atMost(WAIT).until(() -> received.stream().anyMatch(body -> body.path("facts").has("coalesced")));
        await().during(Duration.ofSeconds(2)).atMost(WAIT).until(() -> received.size() == LIMIT + 1);
        List<JsonNode> summaries = received.stream().filter(body -> body.path("facts").has("coalesced")).toList();
        assertThat(summaries).hasSize(1);
        assertThat(summaries.get(0).path("facts").path("coalesced").asInt()).isEqualTo(storm - LIMIT);
        assertThat(coalesced()).isEqualTo(storm - LIMIT);
    }

    @Test
    void theSameNotificationEnqueuedAgainIsNeitherSentNorCountedTwice() {
        for (int i = 0; i < LIMIT; i++) {
            enqueue(NotificationEvent.EVENT_PARKED, "again"); // one notification, noticed three times
        }
        enqueue(NotificationEvent.EVENT_PARKED, "second");
        sender().start();
        await().atMost(WAIT).until(() -> received.size() == 2);
        await().during(WINDOW.plusSeconds(1)).atMost(WINDOW.plusSeconds(10)).until(() -> received.size() == 2);
        assertThat(coalesced()).isZero();
    }

    private WebhookSender sender() {
        WebhookSender sender = new WebhookSender(webhook, deliveries, metrics,
                new WebhookSender.Settings(Duration.ofMillis(100), new FixedBackOff(200, FixedBackOff.UNLIMITED_ATTEMPTS), Duration.ofHours(1)),
                Clock.systemUTC());
        senders.add(sender);
        return sender;
    }

    private void enqueue(NotificationEvent event, String name) {
        deliveries.enqueue(new Notification("n-" + name, event, Instant.now(), name + " summary", null, Map.of("name", name)));
    }

    private double coalesced() {
        return meters.get("dlq.notifications.coalesced").tag("receiver", "limited").counter().count();
    }
}
