package io.dlqdesk.testsupport;

/** One test class's own database on a {@link DatabaseServer}. */
public record TestDatabase(String name, String jdbcUrl, String username, String password) {
}
