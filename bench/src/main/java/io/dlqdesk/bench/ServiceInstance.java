package io.dlqdesk.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One instance of the service as users run it: the built runnable jar in a JVM of its own
 * ({@code java -Xmx512m -XX:+UseSerialGC -jar app-<version>-exec.jar}), on loopback. The shape of app's test
 * {@code ServiceProcess}, copied: bench does not depend on app's test classes. Output goes to {@code <logs>/<name>.log}.
 */
final class ServiceInstance implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final int port;
    private final Process process;
    private final Path log;

    private ServiceInstance(String name, int port, Process process, Path log) {
        this.name = name;
        this.port = port;
        this.process = process;
        this.log = log;
    }

    /** Starts the jar with {@code properties} as command-line arguments on a free loopback port; does not wait. */
    static ServiceInstance start(Path jar, Path logs, String name, Map<String, Object> properties) throws IOException {
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:+UseSerialGC", "-jar", jar.toString(), "--server.port=" + port, "--server.address=127.0.0.1"));
        properties.forEach((key, value) -> command.add("--" + key + "=" + value));
        Path log = Files.createDirectories(logs).resolve(name + ".log");
        Files.deleteIfExists(log);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new ServiceInstance(name, port, process, log);
    }

    /** Waits until readiness answers 200; fails with the end of its log if the process died or took too long. */
    void awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ready()) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + logTail());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " not ready within " + timeout + ":\n" + logTail());
            }
            Thread.sleep(250);
        }
    }

    boolean ready() throws InterruptedException {
        try {
            return HTTP.send(request("/actuator/health/readiness").GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    /** A JSON POST with the given Authorization header value. */
    HttpResponse<String> post(String path, String authorization, String json) throws IOException, InterruptedException {
        return HTTP.send(request(path).header("Authorization", authorization).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A JSON PUT with the given Authorization header value. */
    HttpResponse<String> put(String path, String authorization, String json) throws IOException, InterruptedException {
        return HTTP.send(request(path).header("Authorization", authorization).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** CPU time the process has used so far, in nanoseconds (0 where the platform does not say). */
    long cpuNanos() {
        return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    String name() {
        return name;
    }

    /** SIGTERM (Spring's graceful shutdown), then waits for the exit. */
    void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(name + " did not stop within 90 s of SIGTERM:\n" + logTail());
        }
    }

    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Stops it if it still runs: SIGTERM, SIGKILL after 90 s. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            stop();
        }
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(60));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }
}
