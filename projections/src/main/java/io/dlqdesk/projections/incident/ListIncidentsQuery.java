package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.PageBounds;

import java.time.Instant;

/**
 * A page of the incident list, newest first; null filters match everything. {@code detectedFrom} is
 * inclusive, {@code detectedTo} exclusive; {@code eventId} is the root failure's eventId, exactly;
 * {@code key} its record key, byte for byte (a {@link RecordKey} with null bytes matches nothing: a key
 * search looks for a key). Answered with an {@link IncidentPage}.
 */
public record ListIncidentsQuery(String topic, String consumerGroup, IncidentStatus status, String exceptionGroup,
                                 Instant detectedFrom, Instant detectedTo, String eventId, RecordKey key, int page, int size) {

    /** Without the eventId and key filters. */
    public ListIncidentsQuery(String topic, String consumerGroup, IncidentStatus status, String exceptionGroup, Instant detectedFrom,
                              Instant detectedTo, int page, int size) {
        this(topic, consumerGroup, status, exceptionGroup, detectedFrom, detectedTo, null, null, page, size);
    }

    public ListIncidentsQuery {
        PageBounds.require(page, size);
        checkFilters(exceptionGroup, detectedFrom, detectedTo, key);
    }

    /** The list's rules for its filters, which an export of the list follows too ({@link ExportIncidentsQuery}). */
    static void checkFilters(String exceptionGroup, Instant detectedFrom, Instant detectedTo, RecordKey key) {
        if (exceptionGroup != null && !ExceptionGroup.ID_FORMAT.matcher(exceptionGroup).matches()) {
            throw new InvalidValueException("exceptionGroup must be 16 lower-case hex digits, was '" + exceptionGroup + "'");
        }
        if (detectedFrom != null && detectedTo != null && !detectedFrom.isBefore(detectedTo)) {
            throw new InvalidValueException("detectedFrom must be before detectedTo");
        }
        if (key != null && key.bytes() == null) {
            throw new InvalidValueException("a key search needs the key's bytes");
        }
    }
}
