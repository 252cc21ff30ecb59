package io.dlqdesk.projections.incident;

import java.util.List;

/** One page of incidents and how many match in all. */
public record IncidentPage(List<IncidentSummaryView> items, int page, int size, long total) {
}
