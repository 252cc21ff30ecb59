package io.dlqdesk.ingest.loop;

import org.axonframework.common.AxonTransientException;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionTimedOutException;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransientException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * Whose fault a failed write is, read from the whole cause chain. The database's (retried without
 * bound): a connection lost, refused or not available in time, a lock wait timeout or deadlock, a
 * query or transaction timeout. Anything else is the record's own and is tried a bounded number of
 * times: a record that can never be written must not keep a worker slot for ever.
 */
final class WriteFailures {

    /** MySQL/MariaDB vendor codes of a lock wait timeout and a deadlock (not every driver maps them to SQLTransientException). */
    private static final int LOCK_WAIT_TIMEOUT = 1205;
    private static final int DEADLOCK = 1213;

    enum Kind {
        /** The database cannot be reached: a lost, refused or unavailable connection. */
        CONNECTION,
        /** The database is there but the write could not finish now: timeouts, lock waits, deadlocks. */
        TRANSIENT,
        /** The record's own: it will fail the same way next time. */
        RECORD;

        boolean retriedWithoutBound() {
            return this != RECORD;
        }
    }

    private WriteFailures() {
    }

    static Kind kindOf(Throwable failure) {
        Kind kind = Kind.RECORD;
        for (Throwable cause : chain(failure)) {
            if (isConnection(cause)) {
                return Kind.CONNECTION;
            }
            if (isTransient(cause)) {
                kind = Kind.TRANSIENT;
            }
        }
        return kind;
    }

    /** {@code Class: message}, and the root cause's when it is another exception. */
    static String describe(Throwable failure) {
        List<Throwable> chain = chain(failure);
        Throwable root = chain.get(chain.size() - 1);
        String text = failure.getClass().getName() + ": " + failure.getMessage();
        return root == failure ? text : text + " (root cause " + root.getClass().getName() + ": " + root.getMessage() + ")";
    }

    private static boolean isConnection(Throwable cause) {
        return cause instanceof SQLTransientConnectionException || cause instanceof SQLNonTransientConnectionException
                || cause instanceof SQLRecoverableException || cause instanceof DataAccessResourceFailureException
                || cause instanceof RecoverableDataAccessException || cause instanceof CannotCreateTransactionException
                || cause instanceof ConnectException
                || cause instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("08");
    }

    /** A concurrent creation of the same incident (another batch or instance got there first) is transient too: the next try finds it. */
    private static boolean isTransient(Throwable cause) {
        return cause instanceof AggregateStreamCreationException || cause instanceof SQLTransientException || cause instanceof TransientDataAccessException
                || cause instanceof TransactionTimedOutException || cause instanceof SocketTimeoutException
                || cause instanceof TimeoutException || cause instanceof AxonTransientException
                || cause instanceof SQLException sql && (sql.getErrorCode() == LOCK_WAIT_TIMEOUT || sql.getErrorCode() == DEADLOCK
                || sql.getSQLState() != null && sql.getSQLState().startsWith("40"));
    }

    private static List<Throwable> chain(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable cause = failure; cause != null && !chain.contains(cause) && chain.size() < 32; cause = cause.getCause()) {
            chain.add(cause);
        }
        return chain;
    }
}
