package io.dlqdesk.projections.asof;

import java.time.Instant;
import java.util.List;

/**
 * One page of the incidents as they stood at {@code at}, newest status first, and the token that asks for the
 * next page ({@code null} on the last). No total: counting every incident that existed then would cost what the
 * history before {@code at} holds, and a page must not.
 */
public record IncidentsAsOfPage(Instant at, List<IncidentAsOf> items, int size, String next) {
}
