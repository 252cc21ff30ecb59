package io.dlqdesk.notifications.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;
import io.dlqdesk.notifications.NotificationEvent;
import io.dlqdesk.notifications.NotificationProperties.Preset;
import io.dlqdesk.notifications.NotificationProperties.Webhook;
import io.dlqdesk.notifications.NotificationTables;
import io.dlqdesk.notifications.delivery.Deliveries;
import io.dlqdesk.notifications.delivery.RateLimit;
import io.dlqdesk.notifications.delivery.WebhookBody;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stall watches of several instances on the real tables, looked at by hand ({@code check()}) with a clock the
 * test moves. Which instances are alive is the test's say (in the service: their heartbeat rows in service_instance).
 */
@RealInfrastructure
class IngestStallWatchIT {

    private static final Duration EXPIRY = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static TestDatabase database;

    private HikariDataSource dataSource;
    private JdbcTemplate jdbc;
    private Deliveries deliveries;
    private TransactionTemplate transactions;
    private final MovingClock clock = new MovingClock(Instant.parse("2026-12-01T10:00:00Z"));
    private final Set<String> alive = ConcurrentHashMap.newKeySet();
    private final Readiness aReadiness = new Readiness();
    /** Two instances, both alive; each test starts with pod-a's ingest stalling (its readiness down). */
    private IngestStallWatch a;
    private IngestStallWatch b;

    @BeforeAll
    static void tables(TestDatabase testDatabase) throws Exception {
        database = testDatabase;
        NotificationTables.create(database);
    }

    @BeforeEach
    void connect() {
        dataSource = NotificationTables.dataSource(database);
        jdbc = new JdbcTemplate(dataSource);
        jdbc.update("DELETE FROM notification_delivery");
        jdbc.update("DELETE FROM notification_ingest_stall");
        Webhook receiver = new Webhook("oncall", URI.create("http://127.0.0.1:9/hook"), Set.of(NotificationEvent.values()), null,
                Duration.ofSeconds(5), Preset.GENERIC);
        transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        // a rate limit these tests never reach: they are about sending
        deliveries = new Deliveries(jdbc, transactions, List.of(receiver), new WebhookBody(null, "desk"),
                new RateLimit(1000, Duration.ofMinutes(5)));
        a = watch("pod-a", aReadiness);
        b = watch("pod-b", new Readiness());
    }

    @AfterEach
    void close() {
        dataSource.close();
    }

    @Test
    void aStallLeftOpenByAnInstanceThatIsGoneIsEndedByAnotherOnceThatOneCouldTellAndOnlyOnce() throws IOException {
        long since = podAStalls();
        assertThat(ids()).containsExactly("ingest-stalled:pod-a:" + since);

        // refused while the instance is alive: a long stall is still a stall
        b.check();
        clock.advance(EXPIRY.multipliedBy(3));
        b.check();
        assertThat(ids()).containsExactly("ingest-stalled:pod-a:" + since);

        alive.remove("pod-a"); // pod-a is replaced (killed, or stopped) before its ingest came back
        IngestStallWatch successor = watch("pod-c", new Readiness());
        successor.check();
        assertThat(ids()).as("a watch that has seen the database for less than the expiry cannot tell gone from late").hasSize(1);
        // allowed once the instance has no heartbeat: the end of the stall, under the id pod-a's own recovery would have had
        b.check();
        assertThat(ids()).containsExactly("ingest-stalled:pod-a:" + since, "ingest-recovered:pod-a:" + since);
        JsonNode ended = body("ingest-recovered:pod-a:" + since);
        assertThat(ended.path("event").asText()).isEqualTo("ingest-recovered");
        assertThat(ended.path("facts").path("instance").asText()).isEqualTo("pod-a");
        assertThat(ended.path("facts").path("reason").asText()).isEqualTo("instance-gone");
        assertThat(ended.path("facts").path("stalledSince").asText()).isEqualTo(Instant.ofEpochMilli(since).toString());
        assertThat(ended.path("facts").path("endedBy").asText()).isEqualTo("pod-b");
        assertThat(ended.path("summary").asText()).contains("pod-a").contains("gone");
        assertThat(openStalls()).isZero();

        clock.advance(EXPIRY);
        successor.check();
        b.check();
        assertThat(ids()).as("ended once").hasSize(2);
    }

    @Test
    void anInstanceThatRecoversEndsItsOwnStallAndNoOtherEndsItAgain() throws IOException {
        long since = podAStalls();
        clock.advance(Duration.ofSeconds(42));
        aReadiness.up();
        a.check();
        assertThat(ids()).containsExactly("ingest-stalled:pod-a:" + since, "ingest-recovered:pod-a:" + since);
        assertThat(body("ingest-recovered:pod-a:" + since).path("facts").path("reason").asText()).isEqualTo("ready");
        assertThat(body("ingest-recovered:pod-a:" + since).path("facts").path("stalledForSeconds").asLong()).isEqualTo(42);
        assertThat(openStalls()).isZero();

        alive.remove("pod-a");
        b.check();
        clock.advance(EXPIRY.multipliedBy(2));
        b.check();
        assertThat(ids()).hasSize(2);
    }

    @Test
    void anInstanceStillStalledWhoseStallAnotherEndedWhileItWasNotHeardFromAnnouncesItAgain() throws IOException {
        long first = podAStalls();
        b.check();
        alive.remove("pod-a"); // its heartbeat stops (cut off from the database, or paused) but it runs, stalled
        clock.advance(EXPIRY.multipliedBy(2));
        b.check();
        assertThat(ids()).containsExactly("ingest-stalled:pod-a:" + first, "ingest-recovered:pod-a:" + first);

        a.check();
        assertThat(ids()).as("not before its own heartbeat is back").hasSize(2);
        alive.add("pod-a");
        clock.advance(Duration.ofSeconds(5));
        a.check();
        long again = clock.instant().toEpochMilli();
        assertThat(ids()).containsExactly("ingest-stalled:pod-a:" + first, "ingest-recovered:pod-a:" + first, "ingest-stalled:pod-a:" + again);
        assertThat(openStalls()).isEqualTo(1);
        aReadiness.up();
        a.check();
        assertThat(ids()).last().isEqualTo("ingest-recovered:pod-a:" + again);
        assertThat(openStalls()).isZero();
    }

    /** pod-a's ingest goes down and its watch announces the stall; returns when it began (epoch millis, the stall's id). */
    private long podAStalls() {
        aReadiness.down();
        a.check();
        return clock.instant().toEpochMilli();
    }

    private IngestStallWatch watch(String instance, Readiness readiness) {
        alive.add(instance);
        return new IngestStallWatch(readiness::health, deliveries, jdbc, transactions, Duration.ofSeconds(5),
                new IngestStallWatch.Instances(instance, alive::contains, EXPIRY), clock);
    }

    private List<String> ids() {
        return jdbc.queryForList("SELECT notification_id FROM notification_delivery ORDER BY id", String.class);
    }

    private JsonNode body(String notificationId) throws IOException {
        return JSON.readTree(jdbc.queryForObject("SELECT body FROM notification_delivery WHERE notification_id = ?", String.class, notificationId));
    }

    private int openStalls() {
        return jdbc.queryForObject("SELECT COUNT(*) FROM notification_ingest_stall", Integer.class);
    }

    /** The ingest readiness as the test sets it. */
    static final class Readiness {

        private volatile Health health = Health.up().build();

        Health health() {
            return health;
        }

        void down() {
            health = Health.down().withDetail("inFlight", 3).build();
        }

        void up() {
            health = Health.up().build();
        }
    }

    /** Time that moves only when the test says. */
    static final class MovingClock extends Clock {

        private volatile Instant now;

        MovingClock(Instant start) {
            this.now = start;
        }

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }
}
