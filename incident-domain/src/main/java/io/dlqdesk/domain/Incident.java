package io.dlqdesk.domain;

import io.dlqdesk.domain.api.FailureKey;
import io.dlqdesk.domain.api.IncidentId;
import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.IncidentStatus;
import io.dlqdesk.domain.api.OpenIncidentCommand;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

/**
 * The Incident aggregate. Event-sourced: command handlers decide, event-sourcing handlers only
 * assign. Registered with Axon by the application's wiring, so this module stays free of Spring.
 */
public class Incident {

    @AggregateIdentifier
    private IncidentId incidentId;
    private FailureKey rootFailure;
    private IncidentStatus status;

    protected Incident() {
        // required by Axon to rebuild from events
    }

    @CommandHandler
    public Incident(OpenIncidentCommand command) {
        apply(new IncidentOpened(command.incidentId(), command.failureKey(), command.detectedAt()));
    }

    @EventSourcingHandler
    void on(IncidentOpened event) {
        this.incidentId = event.incidentId();
        this.rootFailure = event.failureKey();
        this.status = IncidentStatus.OPEN;
    }
}
