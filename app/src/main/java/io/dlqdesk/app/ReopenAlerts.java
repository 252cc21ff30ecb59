package io.dlqdesk.app;

import io.dlqdesk.domain.api.IncidentReopened;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * A reopened incident is an alert: a record an operator closed failed again. Besides the event on
 * the events topic, a WARN line and a counter, so log- and metric-based alerting can page on it.
 * One processor for the cluster, so each reopen is counted once.
 */
@Component
@ProcessingGroup(ReopenAlerts.PROCESSING_GROUP)
class ReopenAlerts {

    static final String PROCESSING_GROUP = "incident-alerts";

    private static final Logger log = LoggerFactory.getLogger(ReopenAlerts.class);

    private final Counter reopened;

    ReopenAlerts(MeterRegistry meters) {
        this.reopened = Counter.builder("dlq.incidents.reopened").description("closed incidents reopened by a late re-failure")
                .register(meters);
    }

    @EventHandler
    void on(IncidentReopened event) {
        reopened.increment();
        log.warn("incident {} REOPENED: it was {} and failed again ({})", event.incidentId(), event.previousStatus(), event.reopenedBy());
    }
}
