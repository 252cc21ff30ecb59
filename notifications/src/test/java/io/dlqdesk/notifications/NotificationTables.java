package io.dlqdesk.notifications;

import com.zaxxer.hikari.HikariDataSource;
import io.dlqdesk.testsupport.TestDatabase;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Comparator;

/** The module's own tables on a test database, from its shipped migrations (every V6xx, in version order). */
public final class NotificationTables {

    private NotificationTables() {
    }

    public static void create(TestDatabase database) throws IOException, SQLException {
        Resource[] migrations = new PathMatchingResourcePatternResolver().getResources("classpath*:db/migration/notifications/V*.sql");
        Arrays.sort(migrations, Comparator.comparingInt(NotificationTables::version));
        try (Connection connection = DriverManager.getConnection(database.jdbcUrl(), database.username(), database.password());
             Statement statement = connection.createStatement()) {
            for (Resource migration : migrations) {
                String sql;
                try (InputStream in = migration.getInputStream()) {
                    sql = new String(in.readAllBytes(), StandardCharsets.UTF_8).replaceAll("(?m)--.*$", "");
                }
                for (String part : sql.split(";")) {
                    if (!part.isBlank()) {
                        statement.execute(part);
                    }
                }
            }
        }
    }

    public static HikariDataSource dataSource(TestDatabase database) {
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(database.jdbcUrl());
        dataSource.setUsername(database.username());
        dataSource.setPassword(database.password());
        dataSource.setMaximumPoolSize(4);
        return dataSource;
    }

    private static int version(Resource migration) {
        String name = migration.getFilename();
        return Integer.parseInt(name.substring(1, name.indexOf("__")));
    }
}
