package io.dlqdesk.testsupport;

/** A real MySQL-compatible server that tests (or a local run) can use, stop and start again. */
public interface DatabaseServer {

    /** Which server this is and where, for the test log. */
    String description();

    /** A JDBC URL for {@code database} on this server; the database is created on first connect. */
    String jdbcUrl(String database);

    String username();

    String password();

    /**
     * Creates {@code database} afresh (dropping an earlier one of that name) so that a test class
     * starts from an empty schema.
     */
    TestDatabase createFreshDatabase(String database);

    /** Whether {@link #stop()} and {@link #start()} are supported (not for servers we do not own). */
    boolean restartable();

    void start();

    void stop();
}
