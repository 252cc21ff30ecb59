package io.dlqdesk.projections.history;

import java.util.List;

/** How many reopenings there were since the asked instant, and the newest of them (their history entries). */
public record ReopenedIncidents(long total, List<HistoryEntry> newest) {
}
