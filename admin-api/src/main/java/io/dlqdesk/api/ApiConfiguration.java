package io.dlqdesk.api;

import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** The REST API: controllers, their error mapping, and security. */
@Configuration(proxyBeanMethods = false)
@Import({SecurityConfiguration.class, IncidentController.class, IncidentCommandController.class, QuarantineController.class, ReplayController.class, AuditController.class,
        ReplayJobController.class, EditController.class, ParkedEventController.class, RebuildController.class, ProblemAdvice.class, UnexpectedFailureAdvice.class, RequestLimits.class})
public class ApiConfiguration {
}
