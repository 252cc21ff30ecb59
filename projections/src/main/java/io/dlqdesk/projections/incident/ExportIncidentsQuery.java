package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.record.RecordKey;

import java.time.Instant;

/**
 * Every incident the list's filters match, in the list's order (newest first), without paging: what an export reads.
 * The filters mean what they mean in {@link ListIncidentsQuery} and are checked by the same rules. Read by
 * {@link IncidentSummaryExport}, row by row, never sent over the query bus (which answers whole results).
 */
public record ExportIncidentsQuery(String topic, String consumerGroup, IncidentStatus status, String exceptionGroup,
                                   Instant detectedFrom, Instant detectedTo, String eventId, RecordKey key) {

    public ExportIncidentsQuery {
        ListIncidentsQuery.checkFilters(exceptionGroup, detectedFrom, detectedTo, key);
    }
}
