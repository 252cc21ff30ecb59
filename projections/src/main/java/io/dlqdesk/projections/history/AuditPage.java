package io.dlqdesk.projections.history;

import java.util.List;

/** One page of the audit trail and how many entries match in all. */
public record AuditPage(List<HistoryEntry> items, int page, int size, long total) {
}
