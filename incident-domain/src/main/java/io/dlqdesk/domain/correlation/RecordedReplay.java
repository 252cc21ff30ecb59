package io.dlqdesk.domain.correlation;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.RecordKey;

import java.util.List;
import java.util.Optional;

/**
 * The incident side of correlation: what the root incident recorded about its record and about
 * each replay attempt. The aggregate builds it from its own state; ingest can build it from a
 * read model to ask the same question before sending a command.
 */
public record RecordedReplay(
        IncidentId incidentId,
        String topic,
        EventId eventId,
        RecordKey key,
        OriginalTimestamp originalTimestamp,
        List<RecordedAttempt> attempts) {

    public RecordedReplay {
        attempts = List.copyOf(attempts);
    }

    public Optional<RecordedAttempt> attempt(int number) {
        return attempts.stream().filter(recorded -> recorded.attempt() == number).findFirst();
    }
}
