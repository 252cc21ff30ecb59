package io.dlqdesk.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The service as users run it: the built {@code app-<version>-exec.jar} in a JVM of its own, on the
 * test's database and broker. {@link #kill()} is SIGKILL (kill -9): no shutdown hook, no commit, no
 * goodbye to the group or the token store. Output goes to {@code target/service-logs/<name>.log}.
 */
final class ServiceProcess implements AutoCloseable {

    private static final Path JAR = Path.of(System.getProperty("service.exec.jar", "target/app-exec.jar"));
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final int port;
    private final Process process;
    private final Path log;

    private ServiceProcess(String name, int port, Process process, Path log) {
        this.name = name;
        this.port = port;
        this.process = process;
        this.log = log;
    }

    /** Starts it with {@link RunningApp#properties} as command-line arguments (its users included); does not wait. */
    static ServiceProcess start(String name, Map<String, Object> properties) throws IOException {
        return start(name, properties, List.of("-Xmx512m"));
    }

    /**
     * The same with {@code jvmOptions} (for example a small {@code -Xmx} and {@code -XX:+ExitOnOutOfMemoryError}, to show that
     * something streams) in place of the default heap bound, {@code -Xmx512m}.
     */
    static ServiceProcess start(String name, Map<String, Object> properties, List<String> jvmOptions) throws IOException {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException("no service jar at " + JAR + ": run the tests through Maven (verify), which packages it first");
        }
        int port = freePort();
        Map<String, Object> withPort = new HashMap<>(properties);
        withPort.put("server.port", port);
        withPort.put("server.address", "127.0.0.1");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-XX:+UseSerialGC", "-jar", JAR.toString()));
        command.addAll(List.of(RunningApp.arguments(withPort)));
        Path logs = Files.createDirectories(Path.of("target", "service-logs"));
        Path log = logs.resolve(name + ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new ServiceProcess(name, port, process, log);
    }

    /** Waits until readiness is UP; fails with the end of its log if the process died or took too long. */
    ServiceProcess awaitReady(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + logTail());
            }
            if (ready()) {
                return this;
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException(name + " not ready within " + timeout + ":\n" + logTail());
    }

    /** Readiness answered 200 (UP); false for DOWN, no answer, or no process. */
    boolean ready() {
        try {
            return HTTP.send(request("/actuator/health/readiness").GET().build(), HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    HttpResponse<String> get(String path, String user) throws Exception {
        return HTTP.send(request(path).header("Authorization", basic(user)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String user, String json) throws Exception {
        return HTTP.send(request(path).header("Authorization", basic(user)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> put(String path, String user, String json) throws Exception {
        return HTTP.send(request(path).header("Authorization", basic(user)).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A GET whose body is read as it arrives, within {@code timeout} for the whole answer. */
    HttpResponse<InputStream> stream(String path, String user, Duration timeout) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(timeout)
                .header("Authorization", basic(user)).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
    }

    /** Whether a request failed because nobody answered (the process is gone or not listening yet). */
    static boolean unanswered(Exception e) {
        return e instanceof ConnectException || e instanceof HttpTimeoutException
                || e instanceof IOException && e.getCause() instanceof ConnectException;
    }

    /** kill -9. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + " survived SIGKILL");
        }
    }

    /** SIGTERM: Spring's graceful shutdown. */
    void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(name + " did not stop within 90 s of SIGTERM:\n" + logTail());
        }
    }

    int port() {
        return port;
    }

    boolean alive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    String name() {
        return name;
    }

    String logTail() {
        List<String> lines = logLines();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }

    /** What this process logged so far: from its start line on (earlier runs under this name logged to the same file). */
    List<String> logLinesOfThisRun() {
        List<String> lines = logLines();
        String started = "with PID " + process.pid() + " ";
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).contains(started)) {
                return lines.subList(i, lines.size());
            }
        }
        return lines;
    }

    /** Every line it has logged so far (of every run under this name). */
    List<String> logLines() {
        try {
            return Files.readAllLines(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return List.of("(no log: " + e + ")");
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(60));
    }

    private static String basic(String user) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + RunningApp.PASSWORD).getBytes(StandardCharsets.UTF_8));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }
}
