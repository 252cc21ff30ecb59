package io.dlqdesk.app;

import org.springframework.jdbc.core.JdbcTemplate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Asks whichever instance is alive for rollback readiness, again and again, while sampling from the
 * database whether a replay is in flight (requested and undecided, or an outbox row PENDING). Start it
 * once every replay of the run has been requested: from then on in-flight only ever ends, so a READY
 * answer received before a sample that still saw a replay in flight was given while it was in flight.
 */
final class RollbackWatch implements AutoCloseable {

    record Answer(long startNanos, long endNanos, int status, String body) {
    }

    private record Sample(long startNanos, boolean inFlight) {
    }

    private static final Pattern VERDICT = Pattern.compile("\"verdict\"\\s*:\\s*\"([A-Z_]+)\"");

    private final JdbcTemplate jdbc;
    private final AtomicReference<ServiceProcess> live;
    private final Duration period;
    private final BooleanSupplier alsoInFlight;
    private final Path answerLog;
    private final List<Answer> answers = new CopyOnWriteArrayList<>();
    private final List<Sample> samples = new CopyOnWriteArrayList<>();
    private volatile boolean running;
    private Thread asker;
    private Thread sampler;

    RollbackWatch(JdbcTemplate jdbc, AtomicReference<ServiceProcess> live) {
        this(jdbc, live, Duration.ofMillis(200), () -> false, null);
    }

    /**
     * Asks every {@code period}, as a pipeline would; {@code alsoInFlight} adds what the test knows is unfinished (a job
     * with work left, a replay not yet consumed); every answer is written to {@code answerLog} with its time and instance.
     */
    RollbackWatch(JdbcTemplate jdbc, AtomicReference<ServiceProcess> live, Duration period, BooleanSupplier alsoInFlight, Path answerLog) {
        this.jdbc = jdbc;
        this.live = live;
        this.period = period;
        this.alsoInFlight = alsoInFlight;
        this.answerLog = answerLog;
    }

    void start() {
        running = true;
        asker = FaultRuns.daemon("rollback-asker", this::ask);
        sampler = FaultRuns.daemon("in-flight-sampler", this::sample);
    }

    private void ask() {
        while (running) {
            ServiceProcess service = live.get();
            long start = System.nanoTime();
            try {
                if (service != null && service.alive()) {
                    HttpResponse<String> response = service.get("/api/v1/rollback-readiness", "viewer");
                    answers.add(new Answer(start, System.nanoTime(), response.statusCode(), response.body()));
                    logAnswer(service.name() + " " + response.statusCode() + " " + verdict(response.body()));
                }
            } catch (Exception e) {
                logAnswer(service.name() + " no answer: " + e); // killed or restarting: no answer is not READY
            }
            FaultRuns.pause(period.toMillis());
        }
    }

    private void sample() {
        while (running) {
            long start = System.nanoTime();
            try {
                Integer undecided = jdbc.queryForObject("SELECT "
                        + "(SELECT COUNT(*) FROM domain_event_entry WHERE payload_type LIKE '%.ReplayRequested') - "
                        + "(SELECT COUNT(*) FROM domain_event_entry WHERE payload_type LIKE '%.PublishResultRecorded' "
                        + "OR payload_type LIKE '%.PublishMarkedUnknown') + "
                        + "(SELECT COUNT(*) FROM replay_outbox WHERE status = 'PENDING')", Integer.class);
                samples.add(new Sample(start, undecided != null && undecided > 0 || alsoInFlight.getAsBoolean()));
            } catch (RuntimeException e) {
                // the database is away: no sample
            }
            FaultRuns.pause(200);
        }
    }

    private void logAnswer(String line) {
        if (answerLog == null) {
            return;
        }
        try {
            Files.writeString(answerLog, Instant.now() + " " + line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String verdict(String body) {
        Matcher verdict = VERDICT.matcher(body);
        return verdict.find() ? verdict.group(1) : body.substring(0, Math.min(body.length(), 200));
    }

    /** READY answers received before a later sample still saw a replay in flight. */
    List<Answer> readyWhileInFlight() {
        long lastInFlight = samples.stream().filter(Sample::inFlight).mapToLong(Sample::startNanos).max().orElse(Long.MIN_VALUE);
        return answers.stream().filter(answer -> answer.status() == 200 && answer.endNanos() < lastInFlight).toList();
    }

    int checks() {
        return answers.size();
    }

    long readyCount() {
        return answers.stream().filter(answer -> answer.status() == 200).count();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        if (asker != null) {
            asker.join(90_000);
            sampler.join(30_000);
        }
    }
}
