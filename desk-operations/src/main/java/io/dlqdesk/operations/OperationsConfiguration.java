package io.dlqdesk.operations;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.operations.export.BrokenOffResponses;
import io.dlqdesk.operations.export.ExportProperties;
import io.dlqdesk.operations.export.IncidentExports;
import io.dlqdesk.operations.incident.IncidentReads;
import io.dlqdesk.operations.quarantine.QuarantineReads;
import io.dlqdesk.operations.record.HeaderRedaction;
import io.dlqdesk.operations.replay.IncidentEdits;
import io.dlqdesk.operations.replay.IncidentReplays;
import io.dlqdesk.operations.replay.ReplayJobs;
import io.dlqdesk.operations.security.DeskSecurity;
import io.dlqdesk.operations.security.SecurityProperties;
import io.dlqdesk.projections.incident.IncidentSummaryExport;
import io.dlqdesk.replay.config.ReplayJobProperties;
import io.dlqdesk.replay.edit.EditProposer;
import io.dlqdesk.replay.job.JobWorkList;
import io.dlqdesk.replay.request.PublishUnknownMarker;
import io.dlqdesk.replay.request.ReplayRequester;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;

import java.time.Clock;

/** The operations both front doors call: the REST API and the console ask the same services the same way. */
@Configuration(proxyBeanMethods = false)
@Import(DeskSecurity.class)
@EnableConfigurationProperties(ExportProperties.class)
public class OperationsConfiguration {

    @Bean
    IncidentReads incidentReads(QueryGateway queries) {
        return new IncidentReads(queries);
    }

    /** The incident list's export, streamed; its JSON is the list's ({@code json} is the API's own mapper). */
    @Bean
    IncidentExports incidentExports(IncidentSummaryExport reader, ExportProperties limits, ObjectMapper json) {
        return new IncidentExports(reader, limits, json, Clock.systemUTC());
    }

    /** Outermost, before Spring Security: an export that failed mid-way is broken off, not ended as if whole. */
    @Bean
    FilterRegistrationBean<BrokenOffResponses> brokenOffResponses() {
        FilterRegistrationBean<BrokenOffResponses> registration = new FilterRegistrationBean<>(new BrokenOffResponses());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    @Bean
    IncidentEdits incidentEdits(IncidentReads incidents, EditProposer proposer, CommandGateway commands, QueryGateway queries,
                                HeaderRedaction redaction) {
        return new IncidentEdits(incidents, proposer, commands, queries, redaction);
    }

    @Bean
    IncidentReplays incidentReplays(IncidentReads incidents, ReplayRequester requester, PublishUnknownMarker publishUnknown) {
        return new IncidentReplays(incidents, requester, publishUnknown);
    }

    /** Header values withheld by both front doors ({@code dlqdesk.security.redacted-headers}). */
    @Bean
    HeaderRedaction headerRedaction(SecurityProperties security, ObjectMapper json) {
        return new HeaderRedaction(security.redactedHeaders(), json);
    }

    @Bean
    QuarantineReads quarantineReads(QueryGateway queries) {
        return new QuarantineReads(queries);
    }

    /** Replay jobs; their ids are {@code job-} and 32 random hex digits (as long as an incident id, for the audit trail). */
    @Bean
    ReplayJobs replayJobs(CommandGateway commands, QueryGateway queries, IncidentReads incidents, ReplayRequester requester,
                          JobWorkList work, ReplayJobProperties properties) {
        return new ReplayJobs(commands, queries, incidents, requester, work, properties, ReplayJobs::newJobId, Clock.systemUTC());
    }
}
