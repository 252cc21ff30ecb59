package io.dlqdesk.app;

import org.axonframework.messaging.responsetypes.ResponseType;
import org.axonframework.queryhandling.DefaultQueryGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.PessimisticLockingFailureException;

import java.sql.SQLTransactionRollbackException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * A query whose read the database chose as a deadlock's victim is asked again, on the caller's thread, after 20, 40 and
 * 80 ms at most. A bulk rebuild swaps a read model's tables with one {@code RENAME TABLE} of all of them, and a query that
 * reads two of those tables in its one transaction (the list's page and its total) can hold the first while the rename
 * waits for it and wants the second: the database ends the query, never the rename. Any other failure reaches the caller
 * at once.
 */
final class LockRetryingQueryGateway extends DefaultQueryGateway {

    private static final Logger log = LoggerFactory.getLogger(LockRetryingQueryGateway.class);
    private final int maxRetries;
    private final long firstPauseMillis;

    LockRetryingQueryGateway(Builder builder, int maxRetries, Duration firstPause) {
        super(builder);
        this.maxRetries = maxRetries;
        this.firstPauseMillis = firstPause.toMillis();
    }

    @Override
    public <R, Q> CompletableFuture<R> query(String queryName, Q query, ResponseType<R> responseType) {
        return attempt(queryName, () -> super.query(queryName, query, responseType), 0);
    }

    private <R> CompletableFuture<R> attempt(String queryName, Supplier<CompletableFuture<R>> query, int retry) {
        return query.get().exceptionallyCompose(failure -> {
            if (retry >= maxRetries || !lostALock(failure)) {
                return CompletableFuture.failedFuture(failure);
            }
            log.info("{} lost a lock to the database ({}); asking again (retry {} of {})", queryName, failure.getMessage(), retry + 1,
                    maxRetries);
            try {
                Thread.sleep(firstPauseMillis << retry);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return CompletableFuture.failedFuture(failure);
            }
            return attempt(queryName, query, retry + 1);
        });
    }

    static boolean lostALock(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof PessimisticLockingFailureException || cause instanceof SQLTransactionRollbackException) {
                return true;
            }
        }
        return false;
    }
}
