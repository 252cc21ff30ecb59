package io.dlqdesk.projections.readiness;

import io.dlqdesk.projections.MultiRowInsert;
import io.dlqdesk.projections.OrderedStatements;
import io.dlqdesk.projections.RowsByIds;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The rollback facts one batch of events changes, written at once: the stored attempts the batch decides but did not
 * request are read in one query, every attempt it touches is changed in memory in event order and written back in one
 * upsert (a statement per decision before: a rebuild's largest share of statements), then the jobs' statements.
 */
final class RollbackFactsBatch {

    private static final MultiRowInsert UPSERT = new MultiRowInsert("replay_attempt", AttemptRow.COLUMNS,
            "target_group = VALUES(target_group), target_topic = VALUES(target_topic), target_partition = VALUES(target_partition),"
                    + " status = VALUES(status), requested_at = VALUES(requested_at), published_topic = VALUES(published_topic),"
                    + " published_partition = VALUES(published_partition), published_offset = VALUES(published_offset),"
                    + " decided_at = VALUES(decided_at), end_offset_at_decision = VALUES(end_offset_at_decision)");

    /** A ReplayRequested (a new row) or a decision about an attempt the batch reads or requested. */
    private record Change(AttemptRow.Key key, AttemptRow requested, Consumer<AttemptRow> decision) {
    }

    private final List<Change> changes = new ArrayList<>();
    private final OrderedStatements jobs = new OrderedStatements();

    void requested(AttemptRow row) {
        changes.add(new Change(row.key(), row, null));
    }

    void decided(AttemptRow.Key key, Consumer<AttemptRow> decision) {
        changes.add(new Change(key, null, decision));
    }

    /** A statement about one replay job (its rows are not the attempts'). */
    void job(Object jobId, String sql, Object... arguments) {
        jobs.add(jobId, sql, arguments);
    }

    /** An attempt whose consumption an admin waived: after the batch's upserts, so a decision in the same batch comes first. */
    void waived(AttemptRow.Key key, String principal, String reason, Object at) {
        jobs.add(key, "UPDATE replay_attempt SET waived_by = ?, waived_reason = ?, waived_at = ? WHERE incident_id = ? AND attempt = ?",
                principal, reason, at, key.incidentId(), key.attempt());
    }

    void write(JdbcTemplate jdbc) {
        Map<AttemptRow.Key, AttemptRow> rows = new TreeMap<>(read(jdbc, storedRowsTouched())); // key order: the write (and lock) order
        Set<AttemptRow.Key> touched = new HashSet<>();
        for (Change change : changes) {
            touched.add(change.key());
            if (change.requested() != null) {
                rows.put(change.key(), change.requested());
                continue;
            }
            AttemptRow row = rows.get(change.key());
            if (row == null) {
                // an attempt is decided after it is requested (same incident, same segment, in order): a missing row is a
                // read model that lost it, and the rollback check fails closed while these facts stand still
                throw new IllegalStateException("no replay attempt " + change.key() + " before its decision");
            }
            change.decision().accept(row);
        }
        UPSERT.write(jdbc, rows.values().stream().filter(row -> touched.contains(row.key())).map(AttemptRow::values).toList());
        jobs.run(jdbc);
    }

    /** Attempts whose first change in the batch is not their request: their rows are read from the table. */
    private Set<AttemptRow.Key> storedRowsTouched() {
        Set<AttemptRow.Key> seen = new HashSet<>();
        Set<AttemptRow.Key> stored = new TreeSet<>();
        for (Change change : changes) {
            if (seen.add(change.key()) && change.requested() == null) {
                stored.add(change.key());
            }
        }
        return stored;
    }

    private static Map<AttemptRow.Key, AttemptRow> read(JdbcTemplate jdbc, Set<AttemptRow.Key> keys) {
        Map<AttemptRow.Key, AttemptRow> rows = new TreeMap<>();
        // by incident (the primary key's first column): an incident's other attempts come along and are left out
        List<String> incidents = keys.stream().map(AttemptRow.Key::incidentId).distinct().toList();
        RowsByIds.read(jdbc, "SELECT " + AttemptRow.COLUMNS + " FROM replay_attempt WHERE incident_id", incidents, AttemptRow::read).stream()
                .filter(row -> keys.contains(row.key())).forEach(row -> rows.put(row.key(), row));
        return rows;
    }
}
