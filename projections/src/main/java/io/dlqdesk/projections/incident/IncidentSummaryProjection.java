package io.dlqdesk.projections.incident;

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
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Optional;

/** The incident list read model. Resettable: a reset clears the table and events rebuild it. */
@Component
@ProcessingGroup(IncidentSummaryProjection.PROCESSING_GROUP)
public class IncidentSummaryProjection {

    /** Explicit, so that moving this class never resets its token. */
    public static final String PROCESSING_GROUP = "incident-summary";

    private final IncidentSummaryRepository repository;

    IncidentSummaryProjection(IncidentSummaryRepository repository) {
        this.repository = repository;
    }

    @EventHandler
    void on(IncidentOpened event) {
        var key = event.failureKey();
        repository.save(new IncidentSummaryEntity(event.incidentId().value(), key.topic(), key.partition(), key.offset(),
                key.consumerGroup(), IncidentStatus.OPEN, event.detectedAt(), ExceptionGroup.of(event.failure().exception())));
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
        summary(incidentId).status(status);
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
        Page<IncidentSummaryEntity> page = repository.search(query.topic(), query.consumerGroup(), query.status(), query.exceptionGroup(),
                query.detectedFrom(), query.detectedTo(), PageRequest.of(query.page(), query.size(), Sort.by(Sort.Order.desc("detectedAt"), Sort.Order.asc("incidentId"))));
        return new IncidentPage(page.map(IncidentSummaryEntity::toView).getContent(), query.page(), query.size(), page.getTotalElements());
    }

    @QueryHandler
    List<String> handle(FindIncidentTopicsQuery query) {
        return repository.findDistinctTopics();
    }

    @QueryHandler
    List<IncidentCount> handle(CountIncidentsQuery query) {
        return switch (query.by()) {
            case TOPIC -> repository.countByTopic();
            case CONSUMER_GROUP -> repository.countByConsumerGroup();
            case STATUS -> repository.countByStatus();
            case EXCEPTION_GROUP -> repository.countByExceptionGroup();
        };
    }

    @QueryHandler
    List<ExceptionGroupView> handle(ListExceptionGroupsQuery query) {
        return repository.exceptionGroups();
    }

    @ResetHandler
    void reset() {
        repository.deleteAllInBatch();
    }
}
