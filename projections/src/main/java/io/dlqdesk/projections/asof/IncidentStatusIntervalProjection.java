package io.dlqdesk.projections.asof;

import io.dlqdesk.domain.api.IncidentAcknowledged;
import io.dlqdesk.domain.api.IncidentDiscarded;
import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.IncidentReopened;
import io.dlqdesk.domain.api.IncidentResolved;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.projections.OrderedStatements;
import io.dlqdesk.projections.PendingWrites;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * Point-in-time audit: each incident's statuses as intervals of event time, so "the ledger as it
 * stood at T" is one indexed range read, paged by cursor, instead of a replay of the whole event store. The
 * answer is what the events recorded at or before T say (an event at exactly T counts), as a replay
 * of them would give; a test holds the two equal. Like every read model it follows the event store
 * within seconds, and it is rebuilt from events on a reset. Written per batch of events.
 */
@Component
@ProcessingGroup(IncidentStatusIntervalProjection.PROCESSING_GROUP)
public class IncidentStatusIntervalProjection {

    /** Explicit, so that moving this class never resets its token. */
    public static final String PROCESSING_GROUP = "incident-as-of";
    private static final long OPEN_ENDED = Long.MAX_VALUE;
    private static final String COLUMNS = "incident_id, topic, partition_no, record_offset, consumer_group, status, valid_from";
    private static final String HOLDING_AT = " FROM incident_status_interval WHERE valid_from <= ? AND valid_to > ?";
    private static final String NEWEST_FIRST = " ORDER BY valid_from DESC, incident_id DESC LIMIT ?";

    private static final String OPENED = "INSERT INTO incident_status_interval (incident_id, seq, status, valid_from, valid_to, topic,"
            + " partition_no, record_offset, consumer_group) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE seq = seq";
    // every earlier status ends at the latest when this one starts: with instances whose clocks disagree, a later event can
    // carry an earlier time, and its status must hold from then on, not the one it followed (whose interval empties)
    private static final String END_EARLIER = "UPDATE incident_status_interval SET valid_to = ? WHERE incident_id = ? AND valid_to > ? AND seq < ?";
    private static final String START_NEXT = "INSERT INTO incident_status_interval (incident_id, seq, status, valid_from, valid_to, topic,"
            + " partition_no, record_offset, consumer_group) SELECT incident_id, ?, ?, ?, ?, topic, partition_no, record_offset, consumer_group"
            + " FROM incident_status_interval WHERE incident_id = ? ORDER BY seq LIMIT 1 ON DUPLICATE KEY UPDATE seq = VALUES(seq)";

    private final JdbcTemplate jdbc;
    /** A batch's statements, run as JDBC batches when it commits; those of one incident in event order. */
    private final PendingWrites<OrderedStatements> pending;

    /** Over the tables {@code jdbc} reaches: the live ones, or a bulk rebuild's. */
    public IncidentStatusIntervalProjection(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.pending = new PendingWrites<>(PROCESSING_GROUP, jdbc.getDataSource(), OrderedStatements::new, statements -> statements.run(jdbc));
    }

    @EventHandler
    void on(IncidentOpened event, @SequenceNumber long seq, @Timestamp Instant at) {
        var key = event.failureKey();
        String incident = event.incidentId().value();
        pending.record(statements -> statements.add(incident, OPENED, incident, seq, IncidentStatus.OPEN.name(), nanos(at), OPEN_ENDED,
                key.topic(), key.partition(), key.offset(), key.consumerGroup()));
    }

    @EventHandler
    void on(IncidentAcknowledged event, @SequenceNumber long seq, @Timestamp Instant at) {
        changed(event.incidentId(), seq, IncidentStatus.ACKED, at);
    }

    @EventHandler
    void on(IncidentResolved event, @SequenceNumber long seq, @Timestamp Instant at) {
        changed(event.incidentId(), seq, IncidentStatus.RESOLVED, at);
    }

    @EventHandler
    void on(IncidentDiscarded event, @SequenceNumber long seq, @Timestamp Instant at) {
        changed(event.incidentId(), seq, IncidentStatus.DISCARDED, at);
    }

    @EventHandler
    void on(IncidentReopened event, @SequenceNumber long seq, @Timestamp Instant at) {
        changed(event.incidentId(), seq, IncidentStatus.OPEN, at);
    }

    /**
     * Ends every earlier interval still holding at {@code at} and starts the next; the location is the incident's own, copied
     * from its first interval. So the status as of T is the one after the incident's last event, in the incident's own
     * (and the store's global) order, stamped at or before T: never two at once, whatever the clocks of the instances that
     * stamped them.
     */
    private void changed(IncidentId incidentId, long seq, IncidentStatus status, Instant at) {
        long from = nanos(at);
        String incident = incidentId.value();
        pending.record(statements -> {
            statements.add(incident, END_EARLIER, from, incident, from, seq);
            statements.add(incident, START_NEXT, seq, status.name(), from, OPEN_ENDED, incident);
        });
    }

    /**
     * Newest status first: the index on {@code valid_from} is read backwards from the asked instant (or the cursor),
     * skipping only intervals that had already ended then, so a page costs about its size times the statuses an
     * incident goes through, whatever the length of the history before it.
     */
    @QueryHandler
    IncidentsAsOfPage handle(FindIncidentsAsOfQuery query) {
        long at = nanos(query.at());
        AsOfCursor after = query.after();
        List<IncidentAsOf> rows = after == null
                ? jdbc.query("SELECT " + COLUMNS + HOLDING_AT + NEWEST_FIRST, IncidentStatusIntervalProjection::incident, at, at,
                        query.size() + 1)
                : jdbc.query("SELECT " + COLUMNS + HOLDING_AT + " AND valid_from <= ? AND (valid_from < ? OR incident_id < ?)" + NEWEST_FIRST,
                        IncidentStatusIntervalProjection::incident, at, at, after.validFromNanos(), after.validFromNanos(),
                        after.incidentId(), query.size() + 1);
        if (rows.size() <= query.size()) {
            return new IncidentsAsOfPage(query.at(), rows, query.size(), null);
        }
        List<IncidentAsOf> items = rows.subList(0, query.size());
        IncidentAsOf last = items.get(items.size() - 1);
        return new IncidentsAsOfPage(query.at(), List.copyOf(items), query.size(),
                new AsOfCursor(nanos(last.statusSince()), last.incidentId()).token());
    }

    @ResetHandler
    void reset() {
        pending.discard();
        jdbc.update("DELETE FROM incident_status_interval");
    }

    private static long nanos(Instant instant) {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
    }

    private static Instant instant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }

    private static IncidentAsOf incident(ResultSet row, int number) throws SQLException {
        return new IncidentAsOf(row.getString("incident_id"), row.getString("topic"), row.getInt("partition_no"), row.getLong("record_offset"),
                row.getString("consumer_group"), IncidentStatus.valueOf(row.getString("status")), instant(row.getLong("valid_from")));
    }
}
