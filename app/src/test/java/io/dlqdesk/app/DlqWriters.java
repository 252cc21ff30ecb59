package io.dlqdesk.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Apache Kafka's own dead-letter writers, for ITs: a Kafka Connect standalone worker running a sink connector with a DLQ
 * ({@link ConnectWorker}) and a Kafka Streams app with a KIP-1034 DLQ ({@link StreamsApp}). They need kafka 4.x jars,
 * which clash with the service's kafka-clients 3.9.1, so each runs in a JVM of its own on the {@code dlq-writers}
 * module's classpath (its {@code target/classes} and {@code target/writers.classpath}; system property
 * {@code dlq.writers.dir}). Both fail a record whose value contains a line of the markers file and process the others;
 * the markers file is re-read as they go, so a test "fixes" them by removing a line. Every topic, DLQ topics included,
 * must exist first (Streams does not create its DLQ topic). Output goes to {@code target/writer-logs/<name>.log}.
 */
final class DlqWriters {

    private static final Path DIR = Path.of(System.getProperty("dlq.writers.dir", "../dlq-writers/target"));
    private static final String BYTE_ARRAY_CONVERTER = "org.apache.kafka.connect.converters.ByteArrayConverter";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private DlqWriters() {
    }

    /**
     * A Connect standalone worker (connect-runtime 4.x) with one {@code FailingSinkConnector}: errors.tolerance=all and a
     * DLQ with context headers, so a failing record goes to the DLQ through KIP-610's errant record reporter (stage
     * TASK_PUT) as its raw consumed bytes. The other records are appended to the output file as
     * {@code topic\tpartition\toffset\tvalue}. Its consumer group is {@link #consumerGroup()}.
     */
    static final class ConnectWorker implements AutoCloseable {

        private final Child child;
        private final int port;
        private final String connectorName;

        private ConnectWorker(Child child, int port, String connectorName) {
            this.child = child;
            this.port = port;
            this.connectorName = connectorName;
        }

        /** Starts the worker; does not wait (see {@link #awaitRunning}). The connector reads its topic from the earliest offset. */
        static ConnectWorker start(String name, String bootstrapServers, String connectorName, String sourceTopic, String dlqTopic,
                                   Path markersFile, Path outputFile) throws IOException {
            String classpath = classpath();
            int port = freePort();
            Path work = Files.createTempDirectory("dlq-writer-" + name + "-");
            Map<String, String> worker = new LinkedHashMap<>();
            worker.put("bootstrap.servers", bootstrapServers);
            worker.put("key.converter", BYTE_ARRAY_CONVERTER);
            worker.put("value.converter", BYTE_ARRAY_CONVERTER);
            // standalone keeps source offsets in a file; a sink's offsets are its consumer group's commits
            worker.put("offset.storage.file.filename", work.resolve("connect.offsets").toString());
            // also how often a sink task commits its consumer offsets (default 60 s): tests look at them
            worker.put("offset.flush.interval.ms", "1000");
            worker.put("listeners", "http://127.0.0.1:" + port);
            worker.put("rest.advertised.host.name", "127.0.0.1");
            worker.put("rest.advertised.port", Integer.toString(port));
            // no plugin.path: the connector is on the worker's classpath, which only_scan finds (no ServiceLoader manifest needed)
            worker.put("plugin.discovery", "only_scan");
            Map<String, String> connector = new LinkedHashMap<>();
            connector.put("name", connectorName);
            connector.put("connector.class", "io.dlqdesk.writers.FailingSinkConnector");
            connector.put("tasks.max", "1");
            connector.put("topics", sourceTopic);
            // raw bytes in, so the task sees (and reports) the produced bytes as they are
            connector.put("key.converter", BYTE_ARRAY_CONVERTER);
            connector.put("value.converter", BYTE_ARRAY_CONVERTER);
            connector.put("errors.tolerance", "all");
            connector.put("errors.log.enable", "true");
            connector.put("errors.deadletterqueue.topic.name", dlqTopic);
            connector.put("errors.deadletterqueue.topic.replication.factor", "1");
            // off by default: without it the DLQ record has no __connect.errors.* headers at all
            connector.put("errors.deadletterqueue.context.headers.enable", "true");
            // a sink consumer of a new group starts at the earliest offset anyway (Connect's default for sinks): said here for the reader
            connector.put("consumer.override.auto.offset.reset", "earliest");
            connector.put("fail.markers.file", markersFile.toAbsolutePath().toString());
            connector.put("output.file", outputFile.toAbsolutePath().toString());
            Path workerFile = write(work.resolve("worker.properties"), worker);
            Path connectorFile = write(work.resolve("connector.properties"), connector);
            Child child = Child.start(name, work, List.of("-cp", classpath, "org.apache.kafka.connect.cli.ConnectStandalone",
                    workerFile.toString(), connectorFile.toString()), List.of(workerFile, connectorFile));
            return new ConnectWorker(child, port, connectorName);
        }

        /** Waits until the REST API reports the connector and its task RUNNING; fails at once if either FAILED or the JVM died. */
        ConnectWorker awaitRunning(Duration timeout) throws Exception {
            return awaitState("RUNNING", timeout);
        }

        /** Pauses the connector and waits until it and its task are PAUSED: records sent meanwhile wait in the topic. */
        ConnectWorker pause(Duration timeout) throws Exception {
            request("pause");
            return awaitState("PAUSED", timeout);
        }

        /** Resumes a paused connector and waits until it and its task are RUNNING again. */
        ConnectWorker resume(Duration timeout) throws Exception {
            request("resume");
            return awaitState("RUNNING", timeout);
        }

        private void request(String action) throws Exception {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/connectors/"
                    + connectorName + "/" + action)).timeout(Duration.ofSeconds(10)).PUT(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 202) {
                throw new IllegalStateException(child.name + ": " + action + " of " + connectorName + " answered " + response.statusCode()
                        + " " + response.body());
            }
        }

        private ConnectWorker awaitState(String wanted, Duration timeout) throws Exception {
            long deadline = System.nanoTime() + timeout.toNanos();
            String last = "(no answer yet)";
            while (System.nanoTime() < deadline) {
                child.assertAlive();
                try {
                    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(statusUri()).timeout(Duration.ofSeconds(5)).GET().build(),
                            HttpResponse.BodyHandlers.ofString());
                    last = response.statusCode() + " " + response.body();
                    if (response.statusCode() == 200) {
                        JsonNode status = JSON.readTree(response.body());
                        String connectorState = status.path("connector").path("state").asText();
                        List<String> taskStates = new ArrayList<>();
                        status.path("tasks").forEach(task -> taskStates.add(task.path("state").asText()));
                        if ("FAILED".equals(connectorState) || taskStates.contains("FAILED")) {
                            throw new IllegalStateException(child.name + ": connector " + connectorName + " failed: " + last + "\n" + child.logTail());
                        }
                        if (wanted.equals(connectorState) && !taskStates.isEmpty() && taskStates.stream().allMatch(wanted::equals)) {
                            return this;
                        }
                    }
                } catch (IOException e) {
                    last = "(no answer: " + e + ")"; // REST server not up yet
                }
                Thread.sleep(250);
            }
            throw new IllegalStateException(child.name + ": connector " + connectorName + " not " + wanted + " within " + timeout
                    + "; last status " + last + "\n" + child.logTail());
        }

        /** Connect's group for a sink connector: {@code connect-<connector name>} (SinkUtils.consumerGroupId; no override set here). */
        String consumerGroup() {
            return "connect-" + connectorName;
        }

        /** SIGTERM (the worker stops its connector and commits), then SIGKILL after 15 s. */
        @Override
        public void close() throws InterruptedException {
            child.close();
        }

        private URI statusUri() {
            return URI.create("http://127.0.0.1:" + port + "/connectors/" + connectorName + "/status");
        }
    }

    /**
     * A Kafka Streams app (kafka-streams 4.x) copying the input topic to the output topic, whose {@code mapValues} throws
     * (an IllegalStateException caused by a java.net.ConnectException) on marked records; with
     * LogAndContinueProcessingExceptionHandler and {@code errors.dead.letter.queue.topic.name}, Streams writes them to
     * the DLQ topic and goes on. Its consumer group is its application id.
     */
    static final class StreamsApp implements AutoCloseable {

        private static final String RUNNING = "FAILING-STREAMS-APP RUNNING";

        private final Child child;
        private final String applicationId;

        private StreamsApp(Child child, String applicationId) {
            this.child = child;
            this.applicationId = applicationId;
        }

        /** Starts the app; does not wait (see {@link #awaitRunning}). It reads its input from the earliest offset. */
        static StreamsApp start(String name, String bootstrapServers, String applicationId, String inputTopic, String outputTopic,
                                String dlqTopic, Path markersFile) throws IOException {
            String classpath = classpath();
            Path work = Files.createTempDirectory("dlq-writer-" + name + "-");
            Map<String, String> config = new LinkedHashMap<>();
            config.put("application.id", applicationId);
            config.put("bootstrap.servers", bootstrapServers);
            config.put("state.dir", work.resolve("state").toString());
            config.put("num.stream.threads", "1");
            config.put("auto.offset.reset", "earliest");
            // commits soon after processing, so a test sees the group's position move
            config.put("commit.interval.ms", "200");
            // Streams' close leaves its member in the group until the session times out (45 s by default): an app started
            // again in its place waits that long for its partitions
            config.put("session.timeout.ms", "6000");
            // KIP-1034 (kafka-streams 4.2+): the built-in handlers write failed records here; the topic must exist
            config.put("errors.dead.letter.queue.topic.name", dlqTopic);
            config.put("processing.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler");
            config.put("input.topic", inputTopic);
            config.put("output.topic", outputTopic);
            config.put("fail.markers.file", markersFile.toAbsolutePath().toString());
            Path file = write(work.resolve("streams.properties"), config);
            Child child = Child.start(name, work, List.of("-cp", classpath, "io.dlqdesk.writers.FailingStreamsApp", file.toString()),
                    List.of(file));
            return new StreamsApp(child, applicationId);
        }

        /** Waits for the app's RUNNING line (printed on each transition to RUNNING); fails if the JVM died first. */
        StreamsApp awaitRunning(Duration timeout) throws Exception {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                if (child.linesOfThisRun().stream().anyMatch(line -> line.contains(RUNNING))) {
                    return this;
                }
                child.assertAlive();
                Thread.sleep(200);
            }
            throw new IllegalStateException(child.name + " not RUNNING within " + timeout + ":\n" + child.logTail());
        }

        /** A Streams app's consumer group is its application id. */
        String consumerGroup() {
            return applicationId;
        }

        /**
         * SIGTERM (its shutdown hook closes Streams; its member stays in the group until its session ends), then SIGKILL
         * after 15 s.
         */
        @Override
        public void close() throws InterruptedException {
            child.close();
        }
    }

    /** A child JVM on the writers' classpath, its output appended to target/writer-logs/<name>.log. */
    private static final class Child {

        private final String name;
        private final Process process;
        private final Path log;
        private final long logStart;
        private final Path work;

        private Child(String name, Process process, Path log, long logStart, Path work) {
            this.name = name;
            this.process = process;
            this.log = log;
            this.logStart = logStart;
            this.work = work;
        }

        static Child start(String name, Path work, List<String> arguments, List<Path> configFiles) throws IOException {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    // two cores: small heaps, serial GC, and these writers handle a handful of records
                    "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
            command.addAll(arguments);
            Path log = Files.createDirectories(Path.of("target", "writer-logs")).resolve(name + ".log");
            long logStart = Files.exists(log) ? Files.size(log) : 0;
            // the log says what ran with which settings, since the work directory is deleted on close
            try (Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
                out.write("=== " + name + " started " + Instant.now() + ": " + String.join(" ", command.subList(0, 4)) + " ... "
                        + String.join(" ", arguments.subList(2, arguments.size())) + "\n");
                for (Path file : configFiles) {
                    out.write("=== " + file.getFileName() + ":\n" + Files.readString(file, StandardCharsets.UTF_8));
                }
            }
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            return new Child(name, process, log, logStart, work);
        }

        void assertAlive() {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + logTail());
            }
        }

        List<String> linesOfThisRun() {
            try {
                byte[] all = Files.readAllBytes(log);
                int from = (int) Math.min(logStart, all.length);
                return new String(all, from, all.length - from, StandardCharsets.UTF_8).lines().toList();
            } catch (IOException e) {
                return List.of("(no log: " + e + ")");
            }
        }

        String logTail() {
            List<String> lines = linesOfThisRun();
            return "--- last lines of " + log.toAbsolutePath() + ":\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
        }

        void close() throws InterruptedException {
            try {
                if (process.isAlive()) {
                    process.destroy();
                    if (!process.waitFor(15, TimeUnit.SECONDS)) {
                        process.destroyForcibly();
                        process.waitFor(15, TimeUnit.SECONDS);
                    }
                }
            } finally {
                deleteQuietly(work);
            }
        }
    }

    /** The child JVMs' classpath: the module's classes (or its jar) and its runtime dependencies. */
    private static String classpath() throws IOException {
        Path dir = DIR.toAbsolutePath().normalize();
        Path listed = dir.resolve("writers.classpath");
        Path classes = dir.resolve("classes");
        Path own = Files.isRegularFile(classes.resolve("io/dlqdesk/writers/FailingSinkConnector.class")) ? classes : jar(dir);
        if (!Files.isRegularFile(listed) || own == null) {
            throw new IllegalStateException("the dlq-writers module is not built (no " + (Files.isRegularFile(listed) ? "classes or jar" : listed)
                    + " under " + dir + "): build it first with `./mvnw -pl dlq-writers package` (system property dlq.writers.dir points elsewhere)");
        }
        String dependencies = Files.readString(listed, StandardCharsets.UTF_8).strip();
        return own + (dependencies.isEmpty() ? "" : java.io.File.pathSeparator + dependencies);
    }

    private static Path jar(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return null;
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(file -> {
                String fileName = file.getFileName().toString();
                return fileName.startsWith("dlq-writers-") && fileName.endsWith(".jar");
            }).findFirst().orElse(null);
        }
    }

    private static Path write(Path file, Map<String, String> properties) throws IOException {
        StringBuilder text = new StringBuilder();
        // java.util.Properties syntax: a backslash escapes, so Windows-style paths would need doubling (none here)
        properties.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        return Files.writeString(file, text.toString(), StandardCharsets.UTF_8);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a temp directory left behind is harmless
        }
    }
}
