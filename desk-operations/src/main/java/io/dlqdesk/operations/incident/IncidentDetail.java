package io.dlqdesk.operations.incident;

import io.dlqdesk.domain.replay.PublishStatus;
import io.dlqdesk.projections.history.HistoryEntry;
import io.dlqdesk.projections.incident.IncidentSummaryView;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** An incident with every failure that belongs to it and every replay attempt, as its history tells them. */
public record IncidentDetail(IncidentSummaryView incident, List<HistoryEntry> failures, List<AttemptView> attempts) {

    private static final Set<String> FAILURE_EVENTS = Set.of("IncidentOpened", "RetryFailureCorrelated");

    /** One replay attempt: who asked and why, and how publishing it ended (REQUESTED while undecided). */
    public record AttemptView(int attempt, String requestedBy, String reason, Instant requestedAt, PublishStatus publishStatus,
                              String outcome, Instant decidedAt) {
    }

    public static IncidentDetail of(IncidentSummaryView incident, List<HistoryEntry> history) {
        return new IncidentDetail(incident, history.stream().filter(entry -> FAILURE_EVENTS.contains(entry.eventType())).toList(),
                attempts(history));
    }

    private static List<AttemptView> attempts(List<HistoryEntry> history) {
        Map<Integer, AttemptView> attempts = new LinkedHashMap<>();
        for (HistoryEntry entry : history) {
            if (entry.attempt() == null || entry.publishStatus() == null) {
                continue;
            }
            if (entry.publishStatus() == PublishStatus.REQUESTED) {
                attempts.put(entry.attempt(), new AttemptView(entry.attempt(), entry.principal(), entry.reason(), entry.occurredAt(),
                        PublishStatus.REQUESTED, null, null));
            } else {
                attempts.computeIfPresent(entry.attempt(), (number, requested) -> new AttemptView(number, requested.requestedBy(),
                        requested.reason(), requested.requestedAt(), entry.publishStatus(), entry.detail(), entry.occurredAt()));
            }
        }
        return List.copyOf(attempts.values());
    }
}
