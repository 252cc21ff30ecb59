package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.IncidentStatus;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The summary changes of one batch of events, in event order. Written at once: the stored rows the batch touches
 * are read in one query, changed in memory in event order (a later event of an incident sees what the earlier
 * ones did), and written back in one upsert with the batch's new exception groups and netted count changes.
 */
final class SummaryBatch {

    /** An IncidentOpened (a new row, as a merge would write it) or a change to a row the batch reads or opened. */
    private record Change(String incidentId, SummaryRow opened, RowChange change) {
    }

    @FunctionalInterface
    private interface RowChange {
        void apply(SummaryRow row, CountDeltas counts);
    }

    private final List<Change> changes = new ArrayList<>();

    void opened(SummaryRow row) {
        changes.add(new Change(row.incidentId(), row, null));
    }

    void change(IncidentId incidentId, Consumer<SummaryRow> change) {
        changes.add(new Change(incidentId.value(), null, (row, counts) -> change.accept(row)));
    }

    void status(IncidentId incidentId, IncidentStatus status) {
        changes.add(new Change(incidentId.value(), null, (row, counts) -> {
            IncidentStatus before = row.status();
            if (before != status) {
                row.status(status);
                counts.statusChanged(row, before, status);
            }
        }));
    }

    void write(IncidentSummaryTable table, IncidentCounts counts) {
        Map<String, SummaryRow> rows = new TreeMap<>(table.read(storedRowsTouched())); // id order: the write (and lock) order
        Map<String, ExceptionGroup> newGroups = new TreeMap<>();
        CountDeltas deltas = new CountDeltas();
        Set<String> touched = new HashSet<>();
        for (Change change : changes) {
            touched.add(change.incidentId());
            if (change.opened() != null) {
                rows.put(change.incidentId(), change.opened());
                newGroups.putIfAbsent(change.opened().group().id(), change.opened().group());
                deltas.opened(change.opened());
                continue;
            }
            SummaryRow row = rows.get(change.incidentId());
            if (row == null) {
                // events of one incident arrive after its IncidentOpened (same aggregate, same segment, in order)
                throw new IllegalStateException("no summary for " + change.incidentId() + " before a later event of it");
            }
            change.change().apply(row, deltas);
        }
        table.write(rows.values().stream().filter(row -> touched.contains(row.incidentId())).toList());
        counts.write(newGroups.values(), deltas);
    }

    /** Incidents whose first change in the batch is not their opening: their rows are read from the table. */
    private Set<String> storedRowsTouched() {
        Set<String> seen = new HashSet<>();
        Set<String> stored = new TreeSet<>();
        for (Change change : changes) {
            if (seen.add(change.incidentId()) && change.opened() == null) {
                stored.add(change.incidentId());
            }
        }
        return stored;
    }
}
