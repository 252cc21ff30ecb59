package io.dlqdesk.app;

import io.dlqdesk.domain.Incident;
import io.dlqdesk.domain.job.ReplayJob;
import org.axonframework.commandhandling.CommandBus;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.commandhandling.gateway.DefaultCommandGateway;
import org.axonframework.config.AggregateConfigurer;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventsourcing.AggregateFactory;
import org.axonframework.eventsourcing.GenericAggregateFactory;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;

/**
 * The command side: the Incident and ReplayJob aggregates, registered here so that the domain module needs no Spring, and
 * a gateway that sends a command again when it lost a race on the event store. The event store itself:
 * {@link EventStoreWiring}.
 */
@Configuration(proxyBeanMethods = false)
class AxonCommandHandling {

    @Bean
    ConfigurerModule incidentAggregate() {
        return configurer -> configurer.configureAggregate(Incident.class);
    }

    /**
     * Bulk replays. A job gathers a few events per incident and every round of the runner loads it, so it is snapshotted
     * ({@link JobSnapshotTriggerDefinition}: in proportion to its manifest): a load reads one snapshot and some events, not the
     * job's whole history. Only the job's own events are read as a job: an incident's id names no job (a job command sent to
     * one finds no job instead of failing on the incident's events).
     */
    @Bean
    ConfigurerModule replayJobAggregate() {
        return configurer -> configurer.configureAggregate(AggregateConfigurer.defaultConfiguration(ReplayJob.class)
                .configureSnapshotTrigger(config -> new JobSnapshotTriggerDefinition(config.snapshotter()))
                .configureFilterEventsByType(config -> true));
    }

    /** The snapshotter (Spring's) finds how to create a job among the context's aggregate factories. */
    @Bean
    AggregateFactory<ReplayJob> replayJobFactory() {
        return new GenericAggregateFactory<>(ReplayJob.class);
    }

    /** Every aggregate's commands are routed by their annotated target, looked up once per command class. */
    @Bean
    CommandTargetResolver commandTargetsByClass() {
        return new CommandTargetsByClass();
    }

    /**
     * Commands that lost a race on the event store to another instance are dispatched again (up to 5 times), after
     * 20, 40, 80, 100, 100 ms plus up to 20 ms jitter: about the old linear 20 ms steps, the last pause as before.
     */
    @Bean
    EventStoreConflictRetry eventStoreConflictRetry() {
        return new EventStoreConflictRetry(5, Duration.ofMillis(20), Duration.ofMillis(100));
    }

    @Bean
    CommandGateway commandGateway(CommandBus commandBus, EventStoreConflictRetry retry) {
        return DefaultCommandGateway.builder().commandBus(commandBus).retryScheduler(retry).build();
    }
}
