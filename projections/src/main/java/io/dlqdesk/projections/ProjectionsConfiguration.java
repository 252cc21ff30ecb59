package io.dlqdesk.projections;

import io.dlqdesk.projections.asof.IncidentStatusIntervalProjection;
import io.dlqdesk.projections.history.IncidentHistoryProjection;
import io.dlqdesk.projections.incident.IncidentSummaryProjection;
import org.axonframework.config.ConfigurerModule;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;

import java.util.List;

/** The read models: their tables and event-processing components. */
@Configuration(proxyBeanMethods = false)
@ComponentScan
public class ProjectionsConfiguration {

    /** The event processor of the incident list, history and as-of read models. */
    public static final String INCIDENT_READ_MODELS = "incident-read-models";

    /** The processing groups it runs, in one unit of work per batch. */
    private static final List<String> INCIDENT_READ_MODEL_GROUPS = List.of(IncidentSummaryProjection.PROCESSING_GROUP,
            IncidentHistoryProjection.PROCESSING_GROUP, IncidentStatusIntervalProjection.PROCESSING_GROUP);

    /**
     * Every event changes all three, so one processor reads and deserialises it once for them and stores one token
     * per batch, where a processor each did that three times. The price: a handler that fails holds all three back,
     * and a reset rebuilds all three. The rollback facts keep their own processor, so the rollback check's position
     * is theirs alone.
     */
    @Bean
    ConfigurerModule incidentReadModelsShareOneProcessor() {
        return configurer -> INCIDENT_READ_MODEL_GROUPS.forEach(group -> configurer.eventProcessing().assignProcessingGroup(group, INCIDENT_READ_MODELS));
    }
}
