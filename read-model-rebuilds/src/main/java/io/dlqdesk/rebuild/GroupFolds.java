package io.dlqdesk.rebuild;

import io.dlqdesk.domain.parked.EventParked;
import io.dlqdesk.parked.ParkingPolicy;
import io.dlqdesk.projections.ReadModelSet;
import org.axonframework.eventhandling.AnnotationEventHandlerAdapter;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.spring.messaging.unitofwork.SpringTransactionManager;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A set's processing groups folded side by side: each group writes only its own tables, so each gets its own thread,
 * connection and transaction per chunk, and a chunk is applied by all of them at once (the processor runs them in one
 * transaction for its one token; here the swap is where they meet). What one group parks does not hold back another, as
 * in the processor's queues, which are per group too.
 */
final class GroupFolds implements AutoCloseable {

    private final List<ShadowConnection> connections = new ArrayList<>();
    private final List<EventFold> folds = new ArrayList<>();
    private final ExecutorService threads;

    private GroupFolds(int groups) {
        AtomicInteger number = new AtomicInteger();
        this.threads = Executors.newFixedThreadPool(groups, task -> {
            Thread thread = new Thread(task, "read-model-rebuild-fold-" + number.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** One connection to the shadow schema per group, and the group's handlers over it. */
    static GroupFolds open(ReadModelSet set, DataSource dataSource, String shadowSchema, ParkingPolicy policy) throws SQLException {
        GroupFolds folds = new GroupFolds(set.groups().size());
        try {
            for (Map.Entry<String, java.util.function.Function<JdbcTemplate, Object>> group : set.groups().entrySet()) {
                ShadowConnection connection = new ShadowConnection(dataSource, shadowSchema);
                folds.connections.add(connection);
                folds.folds.add(new EventFold(group.getKey(), new AnnotationEventHandlerAdapter(group.getValue().apply(connection.jdbc())),
                        connection.transactions(), policy));
            }
            return folds;
        } catch (SQLException | RuntimeException e) {
            folds.close();
            throw e;
        }
    }

    /** Every group's fold of {@code chunk}, under way. */
    CompletableFuture<Void> apply(List<? extends EventMessage<?>> chunk) {
        return CompletableFuture.allOf(folds.stream().map(fold -> CompletableFuture.runAsync(() -> {
            try {
                fold.apply(chunk);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CompletionException(e);
            }
        }, threads)).toArray(CompletableFuture[]::new));
    }

    int parkedCount() {
        return folds.stream().mapToInt(EventFold::parkedCount).sum();
    }

    List<EventFold.Parked> parked() {
        return folds.stream().flatMap(fold -> fold.parked().stream()).toList();
    }

    List<EventParked> announcements() {
        return folds.stream().flatMap(fold -> fold.announcements().stream()).toList();
    }

    @Override
    public void close() throws SQLException {
        threads.shutdownNow();
        SQLException failure = null;
        for (ShadowConnection connection : connections) {
            try {
                connection.close();
            } catch (SQLException e) {
                failure = e;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** One connection of the pool, its default schema switched to the shadow one while a fold holds it, and switched back. */
    private static final class ShadowConnection implements AutoCloseable {
        private final Connection connection;
        private final String liveCatalog;
        private final SingleConnectionDataSource shadow;

        ShadowConnection(DataSource dataSource, String schema) throws SQLException {
            this.connection = dataSource.getConnection();
            this.liveCatalog = connection.getCatalog();
            try {
                connection.setCatalog(schema);
            } catch (SQLException e) {
                connection.close();
                throw e;
            }
            this.shadow = new SingleConnectionDataSource(connection, true);
        }

        JdbcTemplate jdbc() {
            return new JdbcTemplate(shadow);
        }

        SpringTransactionManager transactions() {
            return new SpringTransactionManager(new DataSourceTransactionManager(shadow));
        }

        @Override
        public void close() throws SQLException {
            try {
                connection.setCatalog(liveCatalog);
            } catch (SQLException e) { // a pooled connection must never go back pointing at the shadow schema
                connection.abort(Runnable::run);
                throw e;
            } finally {
                connection.close();
            }
        }
    }
}
