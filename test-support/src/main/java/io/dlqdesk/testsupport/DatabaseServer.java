package io.dlqdesk.testsupport;

/** A real MySQL-compatible server that tests (or a local run) can use, stop and start again. */
public interface DatabaseServer {

    /** Which server this is and where, for the test log. */
    String description();

    /** A JDBC URL for {@code database} (empty: the server itself), with this server's connection parameters. */
    String serverUrl(String database);

    String username();

    String password();

    /** A JDBC URL for {@code database} on this server; the database is created on first connect. */
    default String jdbcUrl(String database) {
        return serverUrl(database) + "&createDatabaseIfNotExist=true";
    }

    /**
     * Creates {@code database} afresh (dropping an earlier one of that name) so that a test class
     * starts from an empty schema.
     */
    default TestDatabase createFreshDatabase(String database) {
        return Jdbc.createFresh(this, database);
    }

    /** Whether {@link #stop()} and {@link #start()} are supported (not for servers we do not own). */
    default boolean restartable() {
        return false;
    }

    default void start() {
        throw new UnsupportedOperationException(description() + " is not ours to start");
    }

    default void stop() {
        throw new UnsupportedOperationException(description() + " is not ours to stop");
    }
}
