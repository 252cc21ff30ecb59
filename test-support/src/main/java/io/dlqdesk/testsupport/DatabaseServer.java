package io.dlqdesk.testsupport;

/** A real MySQL-compatible server that tests (or a local run) can use, stop and start again. */
public interface DatabaseServer extends RestartableServer {

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
}
