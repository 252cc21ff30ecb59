package io.dlqdesk.notifications.delivery;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.sun.net.httpserver.HttpServer;
import com.zaxxer.hikari.HikariDataSource;
import io.dlqdesk.notifications.Notification;
import io.dlqdesk.notifications.NotificationEvent;
import io.dlqdesk.notifications.NotificationProperties.Preset;
import io.dlqdesk.notifications.NotificationProperties.Webhook;
import io.dlqdesk.notifications.NotificationTables;
import io.dlqdesk.testsupport.LoggedEvents;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.ExponentialBackOff;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One receiver's sender against the real delivery table and a real HTTP receiver (JDK HttpServer on 127.0.0.1) that
 * answers each notification with the status its summary asks for ({@code status=NNN}, else 204), and may hold every
 * request until the test lets go.
 */
@RealInfrastructure
class WebhookSenderIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Pattern STATUS = Pattern.compile("status=(\\d{3})");
    private static TestDatabase database;

    private HikariDataSource dataSource;
    private JdbcTemplate jdbc;
    private final MeterRegistry meters = new SimpleMeterRegistry();
    private final List<WebhookSender> senders = new ArrayList<>();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger answered = new AtomicInteger();
    private volatile CountDownLatch held = new CountDownLatch(0);
    private HttpServer receiver;
    private ExecutorService receiverThreads;
    private Webhook webhook;
    private Deliveries deliveries;
    private NotificationMetrics metrics;
    private ListAppender<ILoggingEvent> log;

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
        receiverThreads = Executors.newCachedThreadPool();
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 50);
        receiver.setExecutor(receiverThreads);
        receiver.createContext("/hook", exchange -> {
            requests.incrementAndGet();
            try {
                held.await(5, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Matcher status = STATUS.matcher(body);
            byte[] answer = "no thanks".getBytes(StandardCharsets.UTF_8);
            int code = status.find() ? Integer.parseInt(status.group(1)) : 204;
            exchange.sendResponseHeaders(code, code == 204 ? -1 : answer.length);
            if (code != 204) {
                exchange.getResponseBody().write(answer);
            }
            exchange.close();
            answered.incrementAndGet();
        });
        receiver.start();
        webhook = new Webhook("receiver", URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook"),
                Set.of(NotificationEvent.values()), null, Duration.ofSeconds(5), Preset.GENERIC);
        TransactionTemplate readCommitted = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        readCommitted.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        // a rate limit these tests never reach: they are about sending
        deliveries = new Deliveries(jdbc, readCommitted, List.of(webhook), new WebhookBody(null, "desk"),
                new RateLimit(1000, Duration.ofMinutes(5)));
        metrics = new NotificationMetrics(meters, List.of(webhook));
        log = new ListAppender<>();
        log.start();
        ((Logger) LoggerFactory.getLogger(WebhookSender.class)).addAppender(log);
    }

    @AfterEach
    void stop() {
        senders.forEach(WebhookSender::stop);
        held.countDown();
        receiver.stop(0);
        receiverThreads.shutdownNow();
        ((Logger) LoggerFactory.getLogger(WebhookSender.class)).detachAppender(log);
        dataSource.close();
    }

    @Test
    void aNotificationTheReceiverKeepsFailingDoesNotHoldBackTheOnesAfterIt() {
        enqueue("first", "status=500"); // the oldest row, failing on every try
        enqueue("second", "");
        enqueue("third", "");
        sender(Duration.ofHours(1)).start();

        await().atMost(WAIT).until(() -> "DELIVERED".equals(status("second")) && "DELIVERED".equals(status("third")));
        assertThat(status("first")).isEqualTo("PENDING");
        await().atMost(WAIT).until(() -> tries("first") >= 2); // still tried, once per backoff, in turn with the others
        assertThat(row("first").get("last_error")).isEqualTo("HTTP 500: no thanks");
        assertThat(counter("dlq.notifications.given_up")).isZero();
    }

    @Test
    void aNotificationTheReceiverRefusesIsGivenUpAtOnceCountedAndLoggedWhileTimeoutsThrottlingAndServerErrorsAreRetried() {
        enqueue("bad-request", "status=400");
        enqueue("too-large", "status=413");
        enqueue("request-timeout", "status=408");
        enqueue("throttled", "status=429");
        enqueue("server-error", "status=503");
        enqueue("fine", "");
        sender(Duration.ofHours(1)).start();

        await().atMost(WAIT).until(() -> "GAVE_UP".equals(status("bad-request")) && "GAVE_UP".equals(status("too-large")));
        for (String refused : List.of("bad-request", "too-large")) {
            Map<String, Object> row = row(refused);
            assertThat(row.get("tries")).as(refused + ": one try, not the retry window").isEqualTo(1);
            assertThat(row.get("decided_at")).isNotNull();
            assertThat((String) row.get("last_error")).startsWith("HTTP 4").endsWith(": no thanks");
            assertThat(LoggedEvents.snapshot(log)).as(refused).anySatisfy(event -> {
                assertThat(event.getLevel()).isEqualTo(Level.ERROR);
                assertThat(event.getFormattedMessage()).startsWith("webhook receiver GAVE UP on notification n-" + refused + " (new-exception-group)")
                        .contains("refused");
            });
        }
        assertThat(counter("dlq.notifications.given_up")).isEqualTo(2);
        await().atMost(WAIT).until(() -> "DELIVERED".equals(status("fine")));
        // the receiver may take these later: each is tried again, never given up inside the retry window
        await().atMost(WAIT).until(() -> tries("request-timeout") >= 2 && tries("throttled") >= 2 && tries("server-error") >= 2);
        for (String retried : List.of("request-timeout", "throttled", "server-error")) {
            assertThat(status(retried)).as(retried).isEqualTo("PENDING");
        }
        assertThat(counter("dlq.notifications.given_up")).isEqualTo(2);
    }

    @Test
    void aTryCutShortByShutdownIsNotATryEvenPastTheRetryWindowAndTheNotificationIsSentAfterTheRestart() {
        held = new CountDownLatch(1); // the receiver takes the request and does not answer
        enqueue("cut-short", "");
        // written two hours ago: a receiver back after a long outage, the row past the retry window when it is taken
        jdbc.update("UPDATE notification_delivery SET created_at = created_at - INTERVAL 2 HOUR WHERE notification_id = 'n-cut-short'");
        WebhookSender first = sender(Duration.ofHours(1));
        first.start();
        await().atMost(WAIT).until(() -> requests.get() == 1);

        first.stop(); // what a deploy does
        // and it stays so: nothing the stopped sender's thread still does records the try
        await().during(Duration.ofSeconds(2)).atMost(WAIT).untilAsserted(() -> {
            Map<String, Object> row = row("cut-short");
            assertThat(row.get("status")).isEqualTo("PENDING");
            assertThat(row.get("tries")).isEqualTo(0);
            assertThat(row.get("last_error")).isNull();
        });
        assertThat(counter("dlq.notifications.failed_tries")).isZero();
        assertThat(counter("dlq.notifications.given_up")).isZero();
        assertThat(jdbc.queryForObject("SELECT next_attempt_at <= UTC_TIMESTAMP(6) FROM notification_delivery WHERE notification_id = 'n-cut-short'",
                Boolean.class)).as("its lease given back: any instance may send it now").isTrue();

        held.countDown();
        sender(Duration.ofHours(1)).start(); // the next instance
        await().atMost(WAIT).until(() -> "DELIVERED".equals(status("cut-short")));
        assertThat(counter("dlq.notifications.given_up")).isZero();
    }

    private WebhookSender sender(Duration retryWindow) {
        ExponentialBackOff backOff = new ExponentialBackOff(200, 2.0);
        backOff.setMaxInterval(1000);
        WebhookSender sender = new WebhookSender(webhook, deliveries, metrics, new WebhookSender.Settings(Duration.ofMillis(100), backOff, retryWindow),
                Clock.systemUTC());
        senders.add(sender);
        return sender;
    }

    private void enqueue(String name, String ask) {
        deliveries.enqueue(new Notification("n-" + name, NotificationEvent.NEW_EXCEPTION_GROUP, Instant.now(), name + " " + ask, null, Map.of()));
    }

    private Map<String, Object> row(String name) {
        return jdbc.queryForMap("SELECT status, tries, last_error, decided_at FROM notification_delivery WHERE notification_id = ?", "n-" + name);
    }

    private String status(String name) {
        return (String) row(name).get("status");
    }

    private int tries(String name) {
        return (Integer) row(name).get("tries");
    }

    private double counter(String name) {
        return meters.get(name).tag("receiver", "receiver").counter().count();
    }
}
