package io.dlqdesk.app;

import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

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

    private final JdbcTemplate jdbc;
    private final AtomicReference<ServiceProcess> live;
    private final List<Answer> answers = new CopyOnWriteArrayList<>();
    private final List<Sample> samples = new CopyOnWriteArrayList<>();
    private volatile boolean running;
    private Thread asker;
    private Thread sampler;

    RollbackWatch(JdbcTemplate jdbc, AtomicReference<ServiceProcess> live) {
        this.jdbc = jdbc;
        this.live = live;
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
                }
            } catch (Exception e) {
                // killed or restarting: no answer is not READY
            }
            FaultRuns.pause(200);
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
                samples.add(new Sample(start, undecided != null && undecided > 0));
            } catch (RuntimeException e) {
                // the database is away: no sample
            }
            FaultRuns.pause(200);
        }
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
