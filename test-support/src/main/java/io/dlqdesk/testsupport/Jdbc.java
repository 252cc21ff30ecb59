package io.dlqdesk.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;

/** Creating a test database on a server, through the same driver the product uses. */
final class Jdbc {

    private static final Pattern SAFE_NAME = Pattern.compile("[a-z0-9_]{1,64}");

    private Jdbc() {
    }

    static TestDatabase createFresh(DatabaseServer server, String database) {
        if (!SAFE_NAME.matcher(database).matches()) {
            throw new IllegalArgumentException("database name must match " + SAFE_NAME + ": " + database);
        }
        try (Connection connection = DriverManager.getConnection(server.serverUrl(""), server.username(), server.password());
             Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS `" + database + "`");
            statement.execute("CREATE DATABASE `" + database + "` CHARACTER SET utf8mb4");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + database + " on " + server.description(), e);
        }
        return new TestDatabase(database, server.jdbcUrl(database), server.username(), server.password());
    }
}
