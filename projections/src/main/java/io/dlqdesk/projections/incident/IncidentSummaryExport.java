package io.dlqdesk.projections.incident;

import io.dlqdesk.projections.incident.IncidentSummaryTable.Sql;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Every incident an {@link ExportIncidentsQuery} matches, read from the incident list's table (by the list's own statement,
 * {@link IncidentSummaryTable#selectStatement}) and handed to a sink one row at a time as the database sends it, so that an
 * export of a million incidents holds one of them in memory, not a million:
 * <ul>
 * <li>one connection and one read-only REPEATABLE READ transaction: the count handed to {@link IncidentSink#begin} and the
 * rows that follow come from one snapshot, so exactly that many follow, whatever changes meanwhile;</li>
 * <li>streamed by the driver: Connector/J streams the rows of a forward-only, read-only statement whose fetch size is
 * {@code Integer.MIN_VALUE}, whatever the JDBC URL says (any other fetch size without {@code useCursorFetch} reads the whole
 * result into memory first, and a server-side cursor copies it into a temporary table before the first row);</li>
 * <li>bounded in time: each statement by a query timeout, the whole read by the same deadline, checked at every row;</li>
 * <li>an end before the last row (the sink failed because its reader went away, the deadline passed) stops the statement on
 * the server ({@code KILL QUERY}, from another connection of the pool, as the same user): closing a streamed result reads
 * every remaining row from the server first, seconds for a million. The connection goes back to the pool whole.</li>
 * </ul>
 */
@Component
public class IncidentSummaryExport {

    private final IncidentSummaryTable table;

    IncidentSummaryExport(IncidentSummaryTable table) {
        this.table = table;
    }

    /**
     * Hands {@code sink} the number of matching incidents, then each of them, newest first (the list's order); returns how
     * many it handed over. A failure of the database is a {@link org.springframework.dao.DataAccessException}, the deadline
     * passed a {@link QueryTimeoutException}; the sink's own failures come through as they are.
     */
    public long read(ExportIncidentsQuery query, Duration timeout, IncidentSink sink) throws IOException {
        IncidentSummaryTable.Filter filter = filter(query);
        Deadline deadline = new Deadline(timeout);
        Sql count = IncidentSummaryTable.countStatement(filter);
        Sql select = IncidentSummaryTable.selectStatement(filter, IncidentSummaryTable.Order.NEWEST_FIRST);
        try (Connection connection = table.dataSource().getConnection()) {
            oneSnapshot(connection);
            long serverThread = serverThread(connection);
            sink.begin(count(connection, count, deadline));
            long handed = stream(connection, serverThread, select, deadline, sink);
            connection.commit();
            return handed;
        } catch (SQLException e) {
            throw table.translate("export of incidents", select, e);
        }
    }

    /** How many incidents the export would hold now (what {@link IncidentSink#begin} would be told). */
    public long count(ExportIncidentsQuery query) {
        return table.count(filter(query));
    }

    private static IncidentSummaryTable.Filter filter(ExportIncidentsQuery query) {
        return new IncidentSummaryTable.Filter(query.topic(), query.consumerGroup(), query.status(), query.exceptionGroup(),
                query.detectedFrom(), query.detectedTo(), query.eventId(), KeyHash.of(query.key()));
    }

    /** Read-only and REPEATABLE READ whatever the server's default: the count and the rows see one snapshot. */
    private static void oneSnapshot(Connection connection) throws SQLException {
        connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        connection.setReadOnly(true);
        connection.setAutoCommit(false);
    }

    /** The server's id of this connection, which {@code KILL QUERY} names. */
    private static long serverThread(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT CONNECTION_ID()"); ResultSet id = statement.executeQuery()) {
            id.next();
            return id.getLong(1);
        }
    }

    private static long count(Connection connection, Sql count, Deadline deadline) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(count.text())) {
            prepare(statement, count, deadline);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private long stream(Connection connection, long serverThread, Sql select, Deadline deadline, IncidentSink sink) throws SQLException, IOException {
        PreparedStatement statement = connection.prepareStatement(select.text(), ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
        ResultSet rows = null;
        boolean ended = false; // the statement ended: every row read, or the database failed it
        try {
            statement.setFetchSize(Integer.MIN_VALUE); // Connector/J: stream row by row
            prepare(statement, select, deadline);
            rows = statement.executeQuery();
            long handed = 0;
            while (true) {
                ended = true;
                if (!rows.next()) {
                    break;
                }
                ended = false;
                deadline.check(handed);
                sink.accept(SummaryRow.read(rows, 0).toView());
                handed++;
            }
            rows.close();
            statement.close();
            return handed;
        } finally {
            if (rows != null && !ended) {
                stopEarly(connection, serverThread, rows);
            }
            closeQuietly(rows);
            closeQuietly(statement);
        }
    }

    /**
     * Ends a streamed read before its last row (the sink failed, the deadline passed): the statement is killed on the server,
     * then the result closed, which reads only what was already on its way. Should the statement have ended meanwhile
     * (every row sent, not all read), the kill can be left pending on the idle connection: one statement takes it, so that
     * the next user of the connection does not. Without the kill (no connection to send it from), closing reads the rest:
     * slower, and ends as well.
     */
    private void stopEarly(Connection connection, long serverThread, ResultSet rows) {
        boolean killed = table.killQuery(serverThread);
        boolean interrupted = false;
        try {
            rows.close();
        } catch (SQLException e) {
            interrupted = true;
        }
        if (killed && !interrupted) {
            try (PreparedStatement absorb = connection.prepareStatement("SELECT 1"); ResultSet ignored = absorb.executeQuery()) {
                // the pending kill, if any, was reset by the server before this statement
            } catch (SQLException e) {
                // it was taken by this statement
            }
        }
    }

    private static void prepare(PreparedStatement statement, Sql sql, Deadline deadline) throws SQLException {
        statement.setQueryTimeout(deadline.secondsLeft());
        for (int i = 0; i < sql.values().length; i++) {
            statement.setObject(i + 1, sql.values()[i]);
        }
    }

    /** After the statement's end or failure: what is left to free, freed if it can be. */
    private static void closeQuietly(AutoCloseable resource) {
        if (resource == null) {
            return;
        }
        try {
            resource.close();
        } catch (Exception e) {
            // a failure of the read itself is what the caller hears about
        }
    }

    /** When the read must have ended: its statements' query timeout, and a check at every row. */
    private static final class Deadline {

        private final Duration timeout;
        private final long endsAt;

        Deadline(Duration timeout) {
            this.timeout = timeout;
            this.endsAt = System.nanoTime() + timeout.toNanos();
        }

        /** Whole seconds left, at least one (JDBC's unit; 0 would mean no limit). */
        int secondsLeft() {
            long left = Duration.ofNanos(endsAt - System.nanoTime()).toSeconds();
            return (int) Math.max(1, Math.min(Integer.MAX_VALUE, left));
        }

        void check(long handed) {
            if (System.nanoTime() - endsAt > 0) {
                throw new QueryTimeoutException("the export did not end within " + timeout + " (" + handed + " incidents sent)");
            }
        }
    }
}
