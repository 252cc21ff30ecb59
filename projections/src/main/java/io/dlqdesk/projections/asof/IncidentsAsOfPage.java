package io.dlqdesk.projections.asof;

import java.time.Instant;
import java.util.List;

/** One page of the incidents as they stood at {@code at}, and how many there were then in all. */
public record IncidentsAsOfPage(Instant at, List<IncidentAsOf> items, int page, int size, long total) {
}
