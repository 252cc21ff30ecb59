package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.api.DuplicateDeliveryRecorded;
import io.dlqdesk.domain.api.IncidentAcknowledged;
import io.dlqdesk.domain.api.IncidentDiscarded;
import io.dlqdesk.domain.api.IncidentId;
import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.IncidentReopened;
import io.dlqdesk.domain.api.IncidentResolved;
import io.dlqdesk.domain.api.IncidentStatus;
import io.dlqdesk.domain.api.PublishMarkedUnknown;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.api.PublishStatus;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.api.RetryFailureCorrelated;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.data.domain.Slice;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/** The incident list read model. Resettable: a reset clears the table and events rebuild it. */
@Component
@ProcessingGroup(IncidentSummaryProjection.PROCESSING_GROUP)
public class IncidentSummaryProjection {

    /** Explicit, so that moving this class never resets its token. */
    public static final String PROCESSING_GROUP = "incident-summary";

    private final IncidentSummaryRepository repository;
    private final IncidentCounts counts;

    IncidentSummaryProjection(IncidentSummaryRepository repository, IncidentCounts counts) {
        this.repository = repository;
        this.counts = counts;
    }

    @EventHandler
    void on(IncidentOpened event) {
        var key = event.failureKey();
        ExceptionGroup group = ExceptionGroup.of(event.failure().exception());
        counts.opened(repository.save(new IncidentSummaryEntity(event.incidentId().value(), key.topic(), key.partition(), key.offset(),
                key.consumerGroup(), IncidentStatus.OPEN, event.detectedAt(), group, event.correlationMismatches(),
                event.failure().locationUnknownReason())), group);
    }

    @EventHandler
    void on(DuplicateDeliveryRecorded event) {
        summary(event.incidentId()).deliveredAgain(event.detectedAt());
    }

    @EventHandler
    void on(RetryFailureCorrelated event) {
        summary(event.incidentId()).failureCorrelated();
    }

    @EventHandler
    void on(ReplayRequested event) {
        summary(event.incidentId()).attemptRequested(event.attempt());
    }

    @EventHandler
    void on(PublishResultRecorded event) {
        summary(event.incidentId()).attemptDecided(event.attempt(), event.result().status());
    }

    @EventHandler
    void on(PublishMarkedUnknown event) {
        summary(event.incidentId()).attemptDecided(event.attempt(), PublishStatus.PUBLISH_UNKNOWN);
    }

    @EventHandler
    void on(IncidentAcknowledged event) {
        status(event.incidentId(), IncidentStatus.ACKED);
    }

    @EventHandler
    void on(IncidentResolved event) {
        status(event.incidentId(), IncidentStatus.RESOLVED);
    }

    @EventHandler
    void on(IncidentDiscarded event) {
        status(event.incidentId(), IncidentStatus.DISCARDED);
    }

    @EventHandler
    void on(IncidentReopened event) {
        status(event.incidentId(), IncidentStatus.OPEN);
    }

    /** Events of one incident arrive after its IncidentOpened (same aggregate, same segment, in order). */
    private void status(IncidentId incidentId, IncidentStatus status) {
        IncidentSummaryEntity summary = summary(incidentId);
        IncidentStatus before = summary.status();
        if (before != status) {
            summary.status(status);
            counts.statusChanged(summary, before, status);
        }
    }

    private IncidentSummaryEntity summary(IncidentId incidentId) {
        return repository.findById(incidentId.value())
                .orElseThrow(() -> new IllegalStateException("no summary for " + incidentId + " before a later event of it"));
    }

    @QueryHandler
    Optional<IncidentSummaryView> handle(FindIncidentSummaryQuery query) {
        return repository.findById(query.incidentId().value()).map(IncidentSummaryEntity::toView);
    }

    @QueryHandler
    IncidentPage handle(ListIncidentsQuery query) {
        Slice<IncidentSummaryEntity> page = repository.search(query.topic(), query.consumerGroup(), query.status(), query.exceptionGroup(),
                query.detectedFrom(), query.detectedTo(), PageRequest.of(query.page(), query.size(),
                        Sort.by(Sort.Order.desc("detectedAt"), Sort.Order.desc("incidentId"))));
        return new IncidentPage(page.map(IncidentSummaryEntity::toView).getContent(), query.page(), query.size(), total(query));
    }

    /** From the counts table when at most one of topic, group and exception group is filtered and no time range; else counted. */
    private long total(ListIncidentsQuery query) {
        long dimensions = Stream.of(query.topic(), query.consumerGroup(), query.exceptionGroup()).filter(Objects::nonNull)
                .count();
        if (query.detectedFrom() != null || query.detectedTo() != null || dimensions > 1) {
            return repository.count(query.topic(), query.consumerGroup(), query.status(), query.exceptionGroup(), query.detectedFrom(),
                    query.detectedTo());
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
        return repository.findDistinctTopics();
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
        repository.deleteAllInBatch();
        counts.reset();
    }
}
