package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.api.DuplicateDeliveryRecorded;
import io.dlqdesk.domain.api.IncidentAcknowledged;
import io.dlqdesk.domain.api.IncidentDiscarded;
import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.IncidentReopened;
import io.dlqdesk.domain.api.IncidentResolved;
import io.dlqdesk.domain.api.PublishMarkedUnknown;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.api.RetryFailureCorrelated;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.replay.PublishStatus;
import io.dlqdesk.projections.PendingWrites;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The incident list read model. Written once per batch of events (see {@link SummaryBatch}); resettable: a reset
 * clears the table and events rebuild it.
 */
@Component
@ProcessingGroup(IncidentSummaryProjection.PROCESSING_GROUP)
public class IncidentSummaryProjection {

    /** Explicit, so that moving this class never resets its token. */
    public static final String PROCESSING_GROUP = "incident-summary";

    private final IncidentSummaryTable table;
    private final IncidentCounts counts;
    private final PendingWrites<SummaryBatch> pending;

    IncidentSummaryProjection(IncidentSummaryTable table, IncidentCounts counts) {
        this.table = table;
        this.counts = counts;
        this.pending = new PendingWrites<>(PROCESSING_GROUP, table.dataSource(), SummaryBatch::new, batch -> batch.write(table, counts));
    }

    /** Over the tables {@code jdbc} reaches: the live ones, or a bulk rebuild's. */
    public static IncidentSummaryProjection over(JdbcTemplate jdbc) {
        return new IncidentSummaryProjection(new IncidentSummaryTable(jdbc), new IncidentCounts(jdbc));
    }

    @EventHandler
    void on(IncidentOpened event) {
        pending.record(batch -> batch.opened(SummaryRow.opened(event)));
    }

    @EventHandler
    void on(DuplicateDeliveryRecorded event) {
        pending.record(batch -> batch.change(event.incidentId(), row -> row.deliveredAgain(event.detectedAt())));
    }

    @EventHandler
    void on(RetryFailureCorrelated event) {
        pending.record(batch -> batch.change(event.incidentId(), SummaryRow::failureCorrelated));
    }

    @EventHandler
    void on(ReplayRequested event) {
        pending.record(batch -> batch.change(event.incidentId(), row -> row.attemptRequested(event.attempt())));
    }

    @EventHandler
    void on(PublishResultRecorded event) {
        pending.record(batch -> batch.change(event.incidentId(), row -> row.attemptDecided(event.attempt(), event.result().status())));
    }

    @EventHandler
    void on(PublishMarkedUnknown event) {
        pending.record(batch -> batch.change(event.incidentId(), row -> row.attemptDecided(event.attempt(), PublishStatus.PUBLISH_UNKNOWN)));
    }

    @EventHandler
    void on(IncidentAcknowledged event) {
        pending.record(batch -> batch.status(event.incidentId(), IncidentStatus.ACKED));
    }

    @EventHandler
    void on(IncidentResolved event) {
        pending.record(batch -> batch.status(event.incidentId(), IncidentStatus.RESOLVED));
    }

    @EventHandler
    void on(IncidentDiscarded event) {
        pending.record(batch -> batch.status(event.incidentId(), IncidentStatus.DISCARDED));
    }

    @EventHandler
    void on(IncidentReopened event) {
        pending.record(batch -> batch.status(event.incidentId(), IncidentStatus.OPEN));
    }

    @QueryHandler
    Optional<IncidentSummaryView> handle(FindIncidentSummaryQuery query) {
        return table.find(query.incidentId().value()).map(SummaryRow::toView);
    }

    @QueryHandler
    IncidentPage handle(ListIncidentsQuery query) {
        List<IncidentSummaryView> items = table.rows(filter(query), IncidentSummaryTable.Order.NEWEST_FIRST, (long) query.page() * query.size(),
                query.size()).stream().map(SummaryRow::toView).toList();
        return new IncidentPage(items, query.page(), query.size(), total(query));
    }

    @QueryHandler
    List<IncidentSummaryView> handle(SelectIncidentsQuery query) {
        IncidentSummaryTable.Filter filter = new IncidentSummaryTable.Filter(query.topic(), query.consumerGroup(), query.status(),
                query.exceptionGroup(), query.detectedFrom(), query.detectedTo(), null, null);
        return table.rows(filter, IncidentSummaryTable.Order.OLDEST_FIRST, 0, query.limit()).stream().map(SummaryRow::toView).toList();
    }

    private static IncidentSummaryTable.Filter filter(ListIncidentsQuery query) {
        return new IncidentSummaryTable.Filter(query.topic(), query.consumerGroup(), query.status(), query.exceptionGroup(),
                query.detectedFrom(), query.detectedTo(), query.eventId(), KeyHash.of(query.key()));
    }

    /**
     * From the counts table when at most one of topic, group and exception group is filtered and no time range, eventId or
     * key; else counted (an eventId or a key narrows the count to a few rows of its index).
     */
    private long total(ListIncidentsQuery query) {
        long dimensions = Stream.of(query.topic(), query.consumerGroup(), query.exceptionGroup()).filter(Objects::nonNull)
                .count();
        if (query.detectedFrom() != null || query.detectedTo() != null || dimensions > 1 || query.eventId() != null || query.key() != null) {
            return table.count(filter(query));
        }
        if (query.topic() != null) {
            return counts.total(CountIncidentsQuery.Dimension.TOPIC, query.topic(), query.status());
        }
        if (query.consumerGroup() != null) {
            return counts.total(CountIncidentsQuery.Dimension.CONSUMER_GROUP, query.consumerGroup(), query.status());
        }
        if (query.exceptionGroup() != null) {
            return counts.total(CountIncidentsQuery.Dimension.EXCEPTION_GROUP, query.exceptionGroup(), query.status());
        }
        return counts.total(CountIncidentsQuery.Dimension.STATUS, null, query.status());
    }

    @QueryHandler
    List<String> handle(FindIncidentTopicsQuery query) {
        return table.topics();
    }

    @QueryHandler
    List<IncidentCount> handle(CountIncidentsQuery query) {
        return counts.counts(query.by());
    }

    @QueryHandler
    List<ExceptionGroupView> handle(ListExceptionGroupsQuery query) {
        return counts.exceptionGroups();
    }

    @ResetHandler
    void reset() {
        pending.discard();
        table.deleteAll(); // DELETE, not TRUNCATE: a reset stores the replay tokens in the same transaction
        counts.reset();
    }
}
