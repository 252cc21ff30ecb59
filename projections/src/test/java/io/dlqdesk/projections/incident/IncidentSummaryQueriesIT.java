package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.api.DuplicateDeliveryRecorded;
import io.dlqdesk.domain.api.IncidentAcknowledged;
import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.IncidentResolved;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.api.RetryFailureCorrelated;
import io.dlqdesk.domain.correlation.CorrelationMismatch;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.DlqDialect;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.ExceptionSummary;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.PublishResult;
import io.dlqdesk.domain.replay.PublishStatus;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static java.time.temporal.ChronoUnit.DAYS;
import static java.time.temporal.ChronoUnit.MICROS;
import static java.time.temporal.ChronoUnit.MINUTES;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The incident list's queries on the real database, through the projection as the service runs it: rows written by its
 * event handlers, read back by its query handlers. Each filter narrows alone, detectedFrom is inclusive and detectedTo
 * exclusive, the list pages newest first and a selection runs oldest first (ties by incident id), a count is the number
 * of rows matched, and a row's view carries every field its events set.
 */
@RealInfrastructure
class IncidentSummaryQueriesIT {

    /** Microseconds, as DATETIME(6) keeps them: a time must come back exactly. */
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00.123456Z");
    private static final ExceptionSummary PRICE_MISSING = new ExceptionSummary("com.example.PriceMissing", "no price for order 4711");
    private static final ExceptionSummary TIMED_OUT = new ExceptionSummary("java.net.SocketTimeoutException", "Read timed out");
    private static final OperatorAction BY_ALICE = new OperatorAction("alice", "looked at it", T0.plus(1, DAYS));
    private static final int ALL = 500;

    private static SingleConnectionDataSource connection;
    private static IncidentSummaryTable table;
    private static IncidentSummaryProjection projection;
    /** On connections of its own: an export sets its connection read-only in a transaction, the pool resets it. */
    private static IncidentSummaryExport export;

    /** c and d are detected at the same time; b is ACKED, d RESOLVED, the others OPEN. */
    private IncidentId a;
    private IncidentId b;
    private IncidentId c;
    private IncidentId d;
    private IncidentId e;

    @BeforeAll
    static void migrate(TestDatabase database) {
        Flyway.configure().dataSource(database.jdbcUrl(), database.username(), database.password())
                .locations("classpath:db/migration/it-axon", "classpath:db/migration/projections").outOfOrder(true).load().migrate();
        connection = new SingleConnectionDataSource(database.jdbcUrl(), database.username(), database.password(), true);
        JdbcTemplate jdbc = new JdbcTemplate(connection);
        table = new IncidentSummaryTable(jdbc);
        projection = new IncidentSummaryProjection(table, new IncidentCounts(jdbc));
        export = new IncidentSummaryExport(new IncidentSummaryTable(new JdbcTemplate(
                new DriverManagerDataSource(database.jdbcUrl(), database.username(), database.password()))));
    }

    @AfterAll
    static void disconnect() {
        connection.destroy();
    }

    @BeforeEach
    void fiveIncidents() {
        projection.reset();
        a = opened("orders", 0, 1, "billing", T0, PRICE_MISSING, "evt-a", "key-a");
        b = opened("orders", 0, 2, "shipping", T0.plus(1, MINUTES), TIMED_OUT, "evt-b", "key-b");
        c = opened("payments", 1, 1, "billing", T0.plus(2, MINUTES), PRICE_MISSING, null, null);
        d = opened("payments", 1, 2, "shipping", T0.plus(2, MINUTES), TIMED_OUT, "evt-d", "key-d");
        e = opened("audit", 0, 1, "billing", T0.plus(3, MINUTES), PRICE_MISSING, "evt-e", "key-e");
        projection.on(new IncidentAcknowledged(b, BY_ALICE));
        projection.on(new IncidentResolved(d, BY_ALICE));
    }

    @Test
    void eachFilterAloneNarrowsTheListTheSelectionAndTheCount() {
        matches(new Criteria(null, null, null, null, null, null, null, null), a, b, c, d, e);
        matches(new Criteria("orders", null, null, null, null, null, null, null), a, b);
        matches(new Criteria(null, "billing", null, null, null, null, null, null), a, c, e);
        matches(new Criteria(null, null, IncidentStatus.OPEN, null, null, null, null, null), a, c, e);
        matches(new Criteria(null, null, IncidentStatus.ACKED, null, null, null, null, null), b);
        matches(new Criteria(null, null, IncidentStatus.RESOLVED, null, null, null, null, null), d);
        matches(new Criteria(null, null, IncidentStatus.DISCARDED, null, null, null, null, null));
        matches(new Criteria(null, null, null, ExceptionGroup.of(TIMED_OUT).id(), null, null, null, null), b, d);
        matches(new Criteria(null, null, null, null, T0.plus(3, MINUTES), null, null, null), e);
        matches(new Criteria(null, null, null, null, null, T0.plus(1, MINUTES), null, null), a);
        matches(new Criteria(null, null, null, null, null, null, "evt-d", null), d);
        matches(new Criteria(null, null, null, null, null, null, null, key("key-b")), b);
        matches(new Criteria(null, null, null, null, null, null, "evt-nobody", null));
        matches(new Criteria(null, null, null, null, null, null, null, key("key-nobody")));
    }

    @Test
    void filtersTogetherMatchOnlyRowsThatPassEveryOne() {
        matches(new Criteria("payments", null, IncidentStatus.OPEN, null, null, null, null, null), c);
        matches(new Criteria("orders", "shipping", null, null, null, null, null, null), b);
        matches(new Criteria(null, "billing", null, ExceptionGroup.of(PRICE_MISSING).id(), T0.plus(1, MINUTES), T0.plus(3, MINUTES), null,
                null), c);
        matches(new Criteria("orders", null, null, null, null, null, "evt-d", null));
        matches(new Criteria(null, null, null, null, null, null, "evt-a", key("key-b")));
    }

    @Test
    void detectedFromIsInclusiveAndDetectedToExclusive() {
        Instant tie = T0.plus(2, MINUTES);
        matches(new Criteria(null, null, null, null, tie, null, null, null), c, d, e);
        matches(new Criteria(null, null, null, null, null, tie, null, null), a, b);
        matches(new Criteria(null, null, null, null, tie, tie.plus(1, MICROS), null, null), c, d);
        matches(new Criteria(null, null, null, null, tie.plus(1, MICROS), null, null, null), e);
        matches(new Criteria(null, null, null, null, T0.minus(1, MICROS), T0, null, null));
        matches(new Criteria(null, null, null, null, T0, T0.plus(1, MICROS), null, null), a);
    }

    @Test
    void theListIsNewestFirstAndTheSelectionOldestFirstEqualTimesByIncidentId() {
        List<String> tieAscending = Stream.of(c, d).map(IncidentId::value).sorted().toList();
        Criteria all = new Criteria(null, null, null, null, null, null, null, null);

        assertThat(ids(projection.handle(all.list(0, ALL)).items()))
                .containsExactly(e.value(), tieAscending.get(1), tieAscending.get(0), b.value(), a.value());
        assertThat(ids(projection.handle(all.select(ALL))))
                .containsExactly(a.value(), b.value(), tieAscending.get(0), tieAscending.get(1), e.value());
        assertThat(ids(projection.handle(all.select(3)))).containsExactly(a.value(), b.value(), tieAscending.get(0));
    }

    @Test
    void pagesFollowOneAnotherWithoutGapOrRepeatAndEachKnowsTheTotal() {
        List<String> tieAscending = Stream.of(c, d).map(IncidentId::value).sorted().toList();
        Criteria all = new Criteria(null, null, null, null, null, null, null, null);

        IncidentPage first = projection.handle(all.list(0, 2));
        IncidentPage second = projection.handle(all.list(1, 2));
        IncidentPage third = projection.handle(all.list(2, 2));
        IncidentPage beyond = projection.handle(all.list(3, 2));

        assertThat(ids(first.items())).containsExactly(e.value(), tieAscending.get(1));
        assertThat(ids(second.items())).containsExactly(tieAscending.get(0), b.value());
        assertThat(ids(third.items())).containsExactly(a.value());
        assertThat(beyond.items()).isEmpty();
        assertThat(List.of(first, second, third, beyond)).extracting(IncidentPage::total).containsOnly(5L);
        assertThat(second.page()).isEqualTo(1);
        assertThat(second.size()).isEqualTo(2);

        Criteria billingFromT1 = new Criteria(null, "billing", null, null, T0.plus(1, MINUTES), null, null, null);
        IncidentPage filtered = projection.handle(billingFromT1.list(1, 1));
        assertThat(ids(filtered.items())).containsExactly(c.value());
        assertThat(filtered.total()).isEqualTo(2);
    }

    @Test
    void topicsAreListedOnceEachInOrder() {
        assertThat(projection.handle(new FindIncidentTopicsQuery())).containsExactly("audit", "orders", "payments");
    }

    @Test
    void aResetEmptiesTheList() {
        projection.reset();

        Criteria all = new Criteria(null, null, null, null, null, null, null, null);
        assertThat(projection.handle(all.list(0, ALL)).items()).isEmpty();
        assertThat(table.count(all.filter())).isZero();
        assertThat(projection.handle(new FindIncidentTopicsQuery())).isEmpty();
        assertThat(projection.handle(new FindIncidentSummaryQuery(a))).isEmpty();
    }

    @Test
    void aRowsViewCarriesEveryFieldItsEventsSet() {
        FailureKey failureKey = new FailureKey("orders.v2", 3, 4711, "billing-v2");
        FailedRecord root = new FailedRecord(failureKey, new RecordLocation("orders.v2.dlq", 1, 99), key("k-1"), new EventId("evt-full"),
                null, null, PRICE_MISSING).readBy(DlqDialect.CONNECT);
        IncidentId full = IncidentId.of(failureKey);
        Instant detectedAt = T0.plus(10, MINUTES);
        Instant deadline = detectedAt.plus(7, DAYS);
        projection.on(new IncidentOpened(full, root, detectedAt, deadline,
                List.of(CorrelationMismatch.TOPIC_MISMATCH, CorrelationMismatch.KEY_MISMATCH)));
        projection.on(new DuplicateDeliveryRecorded(full, failureKey, new RecordLocation("orders.v2.dlq", 1, 120), T0.plus(12, MINUTES)));
        projection.on(new DuplicateDeliveryRecorded(full, failureKey, new RecordLocation("orders.v2.dlq", 1, 110), T0.plus(11, MINUTES)));
        FailedRecord refailure = new FailedRecord(new FailureKey("orders.v2", 3, 5000, "billing-v2"),
                new RecordLocation("orders.v2.dlq", 1, 130), key("k-1"), new EventId("evt-full"), null, null, PRICE_MISSING);
        projection.on(new RetryFailureCorrelated(full, refailure, 1, T0.plus(13, MINUTES), deadline));
        projection.on(new RetryFailureCorrelated(full, refailure, 1, T0.plus(14, MINUTES), deadline));
        projection.on(ReplayRequested.of(full, 1, failureKey, root, deadline, "desk-1", BY_ALICE));
        projection.on(ReplayRequested.of(full, 2, failureKey, root, deadline, "desk-1", BY_ALICE));
        projection.on(new PublishResultRecorded(full, 2, failureKey, PublishResult.failed("broker down", T0.plus(15, MINUTES))));
        projection.on(new IncidentAcknowledged(full, BY_ALICE));

        assertThat(projection.handle(new FindIncidentSummaryQuery(full))).get().usingRecursiveComparison().isEqualTo(
                new IncidentSummaryView(full.value(), "orders.v2", 3, 4711, "billing-v2", IncidentStatus.ACKED, T0.plus(10, MINUTES),
                        "com.example.PriceMissing", ExceptionGroup.of(PRICE_MISSING).id(), "no price for order <n>", 3, 2,
                        PublishStatus.PUBLISH_FAILED, 2, T0.plus(12, MINUTES),
                        List.of(CorrelationMismatch.TOPIC_MISMATCH, CorrelationMismatch.KEY_MISMATCH), true, null, "evt-full",
                        "orders.v2.dlq", 1, 99, DlqDialect.CONNECT));
    }

    @Test
    void aRowWhoseOriginalLocationIsUnknownShowsWhyAndLeavesTheRestEmpty() {
        RecordLocation dlq = new RecordLocation("orders.dlq", 2, 7);
        FailedRecord failure = FailedRecord.withUnknownLocation("billing", dlq, RecordKey.NONE, null, null, null, TIMED_OUT,
                "no kafka_dlt-original-topic header");
        IncidentId unknown = IncidentId.forFailure(failure);
        projection.on(new IncidentOpened(unknown, failure, T0.plus(20, MINUTES), T0.plus(20, MINUTES).plus(7, DAYS), List.of()));

        assertThat(projection.handle(new FindIncidentSummaryQuery(unknown))).get().usingRecursiveComparison().isEqualTo(
                new IncidentSummaryView(unknown.value(), "orders.dlq", 2, 7, "billing", IncidentStatus.OPEN, T0.plus(20, MINUTES),
                        "java.net.SocketTimeoutException", ExceptionGroup.of(TIMED_OUT).id(), "Read timed out", 1, 0, null, 0, null,
                        List.of(), false, "no kafka_dlt-original-topic header", null, "orders.dlq", 2, 7, DlqDialect.SPRING));
    }

    @Test
    void anIncidentWithoutARowIsNotFound() {
        assertThat(projection.handle(new FindIncidentSummaryQuery(IncidentId.of(new FailureKey("nowhere", 0, 0, "nobody"))))).isEmpty();
    }

    /**
     * The list (a page of everything it matches), its export (the same rows in the same order), the selection (when it has
     * no eventId or key) and both counts.
     */
    private static void matches(Criteria criteria, IncidentId... expected) {
        String[] ids = Arrays.stream(expected).map(IncidentId::value).toArray(String[]::new);
        IncidentPage page = projection.handle(criteria.list(0, ALL));
        assertThat(ids(page.items())).as("listed by %s", criteria).containsExactlyInAnyOrder(ids);
        assertThat(exported(criteria)).as("exported by %s", criteria).usingRecursiveFieldByFieldElementComparator()
                .containsExactlyElementsOf(page.items());
        assertThat(page.total()).as("total of %s", criteria).isEqualTo(expected.length);
        assertThat(table.count(criteria.filter())).as("counted by %s", criteria).isEqualTo(expected.length);
        if (criteria.eventId() == null && criteria.key() == null) {
            assertThat(ids(projection.handle(criteria.select(ALL)))).as("selected by %s", criteria).containsExactlyInAnyOrder(ids);
        }
    }

    private static List<IncidentSummaryView> exported(Criteria criteria) {
        List<IncidentSummaryView> exported = new ArrayList<>();
        try {
            long[] counted = {-1};
            long read = export.read(criteria.export(), Duration.ofMinutes(1), new IncidentSink() {
                @Override
                public void begin(long incidents) {
                    counted[0] = incidents;
                }

                @Override
                public void accept(IncidentSummaryView incident) {
                    exported.add(incident);
                }
            });
            assertThat(counted[0]).isEqualTo(read).isEqualTo(exported.size());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return exported;
    }

    private static IncidentId opened(String topic, int partition, long offset, String consumerGroup, Instant detectedAt,
                                     ExceptionSummary exception, String eventId, String key) {
        FailureKey failureKey = new FailureKey(topic, partition, offset, consumerGroup);
        FailedRecord failure = new FailedRecord(failureKey, new RecordLocation(topic + ".dlq", partition, offset),
                key == null ? RecordKey.NONE : key(key), eventId == null ? null : new EventId(eventId), null, null, exception);
        IncidentId incidentId = IncidentId.of(failureKey);
        projection.on(new IncidentOpened(incidentId, failure, detectedAt, detectedAt.plus(7, DAYS), List.of()));
        return incidentId;
    }

    private static RecordKey key(String text) {
        return RecordKey.of(text.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> ids(List<IncidentSummaryView> views) {
        return views.stream().map(IncidentSummaryView::incidentId).toList();
    }

    /** One set of filters, as each query states it; null matches everything. */
    private record Criteria(String topic, String consumerGroup, IncidentStatus status, String exceptionGroup, Instant detectedFrom,
                            Instant detectedTo, String eventId, RecordKey key) {

        ListIncidentsQuery list(int page, int size) {
            return new ListIncidentsQuery(topic, consumerGroup, status, exceptionGroup, detectedFrom, detectedTo, eventId, key, page, size);
        }

        ExportIncidentsQuery export() {
            return new ExportIncidentsQuery(topic, consumerGroup, status, exceptionGroup, detectedFrom, detectedTo, eventId, key);
        }

        SelectIncidentsQuery select(int limit) {
            return new SelectIncidentsQuery(topic, consumerGroup, status, exceptionGroup, detectedFrom, detectedTo, limit);
        }

        IncidentSummaryTable.Filter filter() {
            return new IncidentSummaryTable.Filter(topic, consumerGroup, status, exceptionGroup, detectedFrom, detectedTo, eventId,
                    KeyHash.of(key));
        }
    }
}
