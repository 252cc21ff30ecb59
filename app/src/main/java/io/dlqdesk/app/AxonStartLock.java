package io.dlqdesk.app;

import org.axonframework.spring.config.SpringAxonConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Instances that start together on a fresh database race to create each event processor's token
 * segments: the loser's insert fails on the key, and Axon aborts that instance's start. So Axon's
 * start (which creates them and commits) runs in one instance at a time, under a database lock
 * (MySQL's GET_LOCK) taken just before and released just after. The lock belongs to a connection, so
 * an instance killed while starting takes its lock with it.
 */
final class AxonStartLock {

    private static final Logger log = LoggerFactory.getLogger(AxonStartLock.class);
    private static final String NAME = "dlqdesk.axon-start";

    private final DataSource dataSource;
    private final Duration wait;
    private Connection holder;

    AxonStartLock(DataSource dataSource, Duration wait) {
        this.dataSource = dataSource;
        this.wait = wait;
    }

    /** Takes the lock before Axon starts. */
    SmartLifecycle acquiring() {
        return new Step(SpringAxonConfiguration.LIFECYCLE_PHASE - 1, this::acquire);
    }

    /** Gives it back once Axon has started. */
    SmartLifecycle releasing() {
        return new Step(SpringAxonConfiguration.LIFECYCLE_PHASE + 1, this::release);
    }

    private synchronized void acquire() {
        try {
            Connection connection = dataSource.getConnection();
            try (PreparedStatement lock = connection.prepareStatement("SELECT GET_LOCK(?, ?)")) {
                lock.setString(1, NAME);
                lock.setLong(2, wait.toSeconds());
                try (ResultSet result = lock.executeQuery()) {
                    if (!result.next() || result.getInt(1) != 1) {
                        connection.close();
                        throw new IllegalStateException("another instance has been starting for more than " + wait
                                + " (it holds the database lock " + NAME + "); not starting beside it");
                    }
                }
            }
            holder = connection;
        } catch (SQLException e) {
            throw new IllegalStateException("could not take the database lock " + NAME + " before starting the event processors", e);
        }
    }

    private synchronized void release() {
        if (holder == null) {
            return;
        }
        try (Connection connection = holder; PreparedStatement unlock = connection.prepareStatement("SELECT RELEASE_LOCK(?)")) {
            unlock.setString(1, NAME);
            unlock.execute();
        } catch (SQLException e) { // closing the connection gives the lock back anyway
            log.warn("releasing the database lock {} failed ({}); the closed connection gives it back", NAME, e.toString());
        } finally {
            holder = null;
        }
    }

    /** One step of the start, in its lifecycle phase; nothing to do on stop. */
    private static final class Step implements SmartLifecycle {

        private final int phase;
        private final Runnable action;
        private volatile boolean running;

        Step(int phase, Runnable action) {
            this.phase = phase;
            this.action = action;
        }

        @Override
        public void start() {
            action.run();
            running = true;
        }

        @Override
        public void stop() {
            running = false;
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public int getPhase() {
            return phase;
        }
    }
}
