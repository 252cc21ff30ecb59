package io.dlqdesk.api;

import io.dlqdesk.replay.config.ReplayJobProperties;
import io.dlqdesk.replay.job.JobWorkList;
import io.dlqdesk.replay.request.ReplayRequester;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import java.time.Clock;

/** The REST API: controllers, their error mapping, and security. */
@Configuration(proxyBeanMethods = false)
@Import({SecurityConfiguration.class, IncidentController.class, IncidentCommandController.class, QuarantineController.class, ReplayController.class, AuditController.class,
        ReplayJobController.class, ParkedEventController.class, ProblemAdvice.class, RequestLimits.class})
public class ApiConfiguration {

    /** Replay jobs; their ids are {@code job-} and 32 random hex digits (as long as an incident id, for the audit trail). */
    @Bean
    ReplayJobs replayJobs(CommandGateway commands, QueryGateway queries, ReplayRequester requester, JobWorkList work,
                          ReplayJobProperties properties) {
        return new ReplayJobs(commands, queries, requester, work, properties, ReplayJobs::newJobId, Clock.systemUTC());
    }
}
