package io.dlqdesk.app;

import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The export streams: a million incidents (as many as {@code dlqdesk.export.max-rows} allows) go out of the service as
 * users run it, in a JVM of its own with a heap far smaller than the export ({@value #HEAP}, about 400 MB of CSV), counted
 * as they arrive and never held by the test either. Holding them anywhere in the service (a list of rows, a driver that
 * reads the whole result) runs it out of memory, and {@code -XX:+ExitOnOutOfMemoryError} makes that a dead process. The
 * same service then shows what happens around an export: a client that goes away frees the database connection at once, a
 * third export at a time is refused with 429, a statement killed mid-way breaks the transfer off, and one incident more
 * than the bound is refused with the count.
 */
@RealInfrastructure
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ExportMemoryIT {

    private static final int INCIDENTS = 1_000_000;
    private static final String HEAP = "-Xmx160m";
    private static final String NONCE = "em" + System.nanoTime();
    private static final Duration WHOLE_EXPORT = Duration.ofMinutes(5);
    /** The export's own statement, as the database lists it while it runs. */
    private static final String EXPORT_STATEMENT = "SELECT incident_id, topic%FROM incident_summary ORDER BY detected_at DESC%";

    private static ServiceProcess service;
    private static JdbcTemplate jdbc;
    private static String databaseName;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) throws Exception {
        databaseName = database.name();
        service = ServiceProcess.start("export-memory", RunningApp.properties(database, broker, Map.of(
                "dlqdesk.ingest.topic-pattern", "it-" + NONCE + "-.*\\.dlq",
                "dlqdesk.ingest.group-id", "ingest-" + NONCE,
                "dlqdesk.events-topic", "it-" + NONCE + "-incident-events")), List.of(HEAP, "-XX:+ExitOnOutOfMemoryError"));
        service.awaitReady(FaultRun.START);
        jdbc = FaultRuns.jdbc(database);
        jdbc.setQueryTimeout(600);
        long started = System.nanoTime();
        fill(INCIDENTS);
        System.out.printf("[ExportMemoryIT] %,d incident_summary rows written in %.1f s%n", INCIDENTS, (System.nanoTime() - started) / 1e9);
    }

    @AfterAll
    static void stop() throws Exception {
        if (service != null) {
            service.close();
        }
    }

    @Test
    @Order(1)
    void aMillionIncidentsExportThroughASmallHeap() throws Exception {
        HeapWatch heap = HeapWatch.start(service);
        long started = System.nanoTime();
        Counted counted;
        try {
            HttpResponse<InputStream> export = service.stream("/api/v1/incidents/export?format=csv", "viewer", WHOLE_EXPORT);
            assertThat(export.statusCode()).isEqualTo(200);
            assertThat(export.headers().firstValue("X-Total-Count")).hasValue(Integer.toString(INCIDENTS));
            try (InputStream body = export.body()) {
                counted = Counted.lines(body, Long.MAX_VALUE);
            }
        } catch (IOException e) {
            heap.stop();
            throw new AssertionError("the export failed and the service " + (service.alive() ? "lives" : "died") + ":\n" + service.logTail(), e);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        heap.stop();
        System.out.printf("[ExportMemoryIT] %,d rows, %,d bytes of CSV in %.1f s: %,.0f rows/s, %.1f MB/s with %s;"
                        + " old generation at most %,d MB while it ran%n", counted.lines() - 1, counted.bytes(), seconds,
                (counted.lines() - 1) / seconds, counted.bytes() / 1e6 / seconds, HEAP, heap.maxOldGeneration() / 1_000_000);

        assertThat(counted.lines()).as("the header and a line per incident").isEqualTo(INCIDENTS + 1);
        assertThat(counted.bytes()).as("more than the heap holds").isGreaterThan(200_000_000L);
        assertThat(service.alive()).as("the service survived the export:\n" + service.logTail()).isTrue();
        assertThat(service.ready()).isTrue();
        assertThat(service.logLinesOfThisRun()).noneMatch(line -> line.contains("OutOfMemoryError"));
    }

    @Test
    @Order(2)
    void aClientThatGoesAwayFreesTheDatabaseConnectionAtOnce() throws Exception {
        HttpResponse<InputStream> export = service.stream("/api/v1/incidents/export?format=ndjson", "viewer", WHOLE_EXPORT);
        assertThat(export.statusCode()).isEqualTo(200);
        try (InputStream body = export.body()) {
            Counted.lines(body, 1_000_000);
            assertThat(exportStatementsRunning()).as("the export reads while its client reads").isEqualTo(1);
        } // the client hangs up with most of the million unread
        long closed = System.nanoTime();
        await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(50)).until(() -> exportStatementsRunning() == 0);
        System.out.printf("[ExportMemoryIT] the export's statement ended %d ms after its client went away%n", (System.nanoTime() - closed) / 1_000_000);
        await().atMost(Duration.ofSeconds(10)).until(() -> service.logLinesOfThisRun().stream().anyMatch(line -> line.contains("broken off by the client")));

        HttpResponse<String> next = service.get("/api/v1/incidents/export?format=csv&eventId=evt-42", "viewer");
        assertThat(next.statusCode()).isEqualTo(200);
        assertThat(next.body().split("\r\n")).hasSize(2);
    }

    @Test
    @Order(3)
    void aThirdExportAtATimeIsRefusedWith429UntilOneEnds() throws Exception {
        List<HttpResponse<InputStream>> running = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                HttpResponse<InputStream> export = service.stream("/api/v1/incidents/export?format=csv", "viewer", WHOLE_EXPORT);
                assertThat(export.statusCode()).isEqualTo(200);
                Counted.lines(export.body(), 64 * 1024); // under way, then held: the service waits to send the rest
                running.add(export);
            }
            HttpResponse<String> third = service.get("/api/v1/incidents/export?format=csv&eventId=evt-42", "viewer");
            assertThat(third.statusCode()).isEqualTo(429);
            assertThat(third.headers().firstValue("Retry-After")).hasValue("30");
            assertThat(third.body()).contains("urn:dlqdesk:problem:too-many-requests", "dlqdesk.export.max-concurrent");
        } finally {
            for (HttpResponse<InputStream> export : running) {
                export.body().close();
            }
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(service.get("/api/v1/incidents/export?format=csv&eventId=evt-42", "viewer").statusCode()).isEqualTo(200));
    }

    @Test
    @Order(4)
    void aStatementKilledMidExportBreaksTheTransferOffInsteadOfEndingIt() throws Exception {
        HttpResponse<InputStream> export = service.stream("/api/v1/incidents/export?format=csv", "viewer", WHOLE_EXPORT);
        assertThat(export.statusCode()).isEqualTo(200);
        try (InputStream body = export.body()) {
            Counted.lines(body, 1_000_000);
            killTheExportStatement();
            assertThatThrownBy(() -> Counted.lines(body, Long.MAX_VALUE)).as("the client is told the file is incomplete")
                    .isInstanceOf(IOException.class);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> service.logLinesOfThisRun().stream()
                .anyMatch(line -> line.contains("export of incidents as csv for viewer after") && line.contains("failed (error ")));

        // as curl sees it: exit code 18, "transfer closed with outstanding read data remaining"
        if (commandWorks("curl", "--version")) {
            Path file = Files.createTempFile("export-", ".csv");
            Process curl = new ProcessBuilder("curl", "-sS", "--limit-rate", "20M", "-u", "viewer:" + RunningApp.PASSWORD, "-o", file.toString(),
                    "http://127.0.0.1:" + service.port() + "/api/v1/incidents/export?format=csv").redirectErrorStream(true).start();
            await().atMost(Duration.ofSeconds(60)).until(() -> Files.size(file) > 1_000_000);
            killTheExportStatement();
            assertThat(curl.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String said = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(curl.exitValue()).as(said).isEqualTo(18);
            Files.delete(file);
        } else {
            System.err.println("[ExportMemoryIT] curl not found: its view of a broken-off export is not checked");
        }
        assertThat(service.alive()).isTrue();
    }

    @Test
    @Order(5)
    void oneIncidentMoreThanAnExportHoldsIsRefusedWithTheCount() throws Exception {
        fill(1, INCIDENTS);
        HttpResponse<String> refused = service.get("/api/v1/incidents/export?format=ndjson", "viewer");
        assertThat(refused.statusCode()).isEqualTo(422);
        assertThat(refused.body()).contains("urn:dlqdesk:problem:export-too-large", "\"rows\":1000001", "\"maxRows\":1000000",
                "1,000,001 incidents");
    }

    /** {@code count} rows straight into the list's table, as its projection would write them, numbered from 0. */
    private static void fill(int count) {
        jdbc.execute("CREATE TABLE IF NOT EXISTS export_it_digits (d INT PRIMARY KEY)");
        jdbc.execute("INSERT IGNORE INTO export_it_digits VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)");
        for (int block = 0; block < count / 100_000; block++) {
            jdbc.update(insert("SELECT ? * 100000 + a.d + 10 * b.d + 100 * c.d + 1000 * e.d + 10000 * f.d AS n FROM export_it_digits a,"
                    + " export_it_digits b, export_it_digits c, export_it_digits e, export_it_digits f"), block);
        }
    }

    /** One row more, numbered {@code from}. */
    private static void fill(int count, int from) {
        for (int n = from; n < from + count; n++) {
            jdbc.update(insert("SELECT ? AS n"), n);
        }
    }

    private static String insert(String numbers) {
        return "INSERT INTO incident_summary (incident_id, topic, partition_no, record_offset, consumer_group, status, detected_at,"
                + " exception_class, exception_group, exception_fingerprint, failure_count, attempt_count, last_publish_status,"
                + " duplicate_deliveries, last_duplicate_at, correlation_mismatches, location_unknown_reason, event_id, key_sha256, dlq_topic,"
                + " dlq_partition, dlq_offset, dlq_dialect)"
                + " SELECT CONCAT('inc-', LPAD(LOWER(HEX(n)), 32, '0')), CONCAT('bulk-', n % 7), n % 12, n, ELT(1 + n % 3, 'billing', 'ledger',"
                + " 'shipping'), ELT(1 + n % 4, 'OPEN', 'ACKED', 'RESOLVED', 'DISCARDED'),"
                + " TIMESTAMP('2026-01-01 00:00:00') + INTERVAL n SECOND + INTERVAL (n * 7919 % 1000000) MICROSECOND,"
                + " 'com.example.PriceMissingException', LPAD(LOWER(HEX(n % 50)), 16, '0'), CONCAT('no price for order <n> in list ', n % 50),"
                + " 1 + n % 3, n % 2, IF(n % 2 = 1, 'PUBLISHED', NULL), 0, NULL, NULL, NULL, CONCAT('evt-', n), SHA2(CONCAT('order-', n), 256),"
                + " CONCAT('bulk-', n % 7, '.dlq'), n % 12, n, 'SPRING' FROM (" + numbers + ") numbers";
    }

    private static void killTheExportStatement() {
        List<Long> ids = jdbc.queryForList("SELECT ID FROM information_schema.PROCESSLIST WHERE DB = ? AND INFO LIKE ?", Long.class,
                databaseName, EXPORT_STATEMENT);
        assertThat(ids).as("the export's statement, running").hasSize(1);
        jdbc.execute("KILL QUERY " + ids.get(0));
    }

    private static boolean commandWorks(String... command) {
        try {
            return new ProcessBuilder(command).redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static int exportStatementsRunning() {
        Integer running = jdbc.queryForObject("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE DB = ? AND INFO LIKE ?", Integer.class,
                databaseName, EXPORT_STATEMENT);
        return running == null ? 0 : running;
    }

    /** Lines and bytes read from a body as they arrive, through one small buffer: nothing of it is kept. */
    private record Counted(long lines, long bytes) {

        /** Reads until the end or until at least {@code atMost} bytes are read. */
        static Counted lines(InputStream body, long atMost) throws IOException {
            byte[] buffer = new byte[64 * 1024];
            long lines = 0;
            long bytes = 0;
            for (int read; bytes < atMost && (read = body.read(buffer)) >= 0; ) {
                bytes += read;
                for (int i = 0; i < read; i++) {
                    if (buffer[i] == '\n') {
                        lines++;
                    }
                }
            }
            return new Counted(lines, bytes);
        }
    }

    /** The most the service's old generation held while the export ran, from its own metrics (what survives collections). */
    private static final class HeapWatch {

        private static final Pattern OLD_GENERATION = Pattern.compile("jvm_memory_used_bytes\\{[^}]*id=\"Tenured Gen\"[^}]*} (\\S+)");

        private final AtomicBoolean watching = new AtomicBoolean(true);
        private final AtomicLong max = new AtomicLong();
        private final Thread thread;

        private HeapWatch(ServiceProcess service) {
            this.thread = new Thread(() -> {
                while (watching.get()) {
                    try {
                        Matcher used = OLD_GENERATION.matcher(service.get("/actuator/prometheus", "admin").body());
                        if (used.find()) {
                            max.accumulateAndGet((long) Double.parseDouble(used.group(1)), Math::max);
                        }
                        Thread.sleep(500);
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        // the next sample, then
                    }
                }
            }, "heap-watch");
            thread.setDaemon(true);
        }

        static HeapWatch start(ServiceProcess service) {
            HeapWatch watch = new HeapWatch(service);
            watch.thread.start();
            return watch;
        }

        void stop() throws InterruptedException {
            watching.set(false);
            thread.join(5_000);
        }

        long maxOldGeneration() {
            return max.get();
        }
    }
}
