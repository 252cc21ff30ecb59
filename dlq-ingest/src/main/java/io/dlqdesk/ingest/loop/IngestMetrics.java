package io.dlqdesk.ingest.loop;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Micrometer meters of the ingest loop (prefix {@code dlq.ingest}). */
public final class IngestMetrics {

    private final Counter consumed;
    private final Counter ingested;
    private final Counter quarantined;
    private final Counter ignored;
    private final Counter blocked;
    private final Counter restarts;
    private final DistributionSummary batchRecords;
    private final Counter batchFallbacks;
    private final Map<WriteFailures.Kind, Counter> writeFailures = new EnumMap<>(WriteFailures.Kind.class);
    private final Map<MalformedPolicy, Counter> gaveUp = new EnumMap<>(MalformedPolicy.class);
    private final MultiGauge awaitingCommit;

    /** Gauges read the loop's {@link LoopHealth}; counters are moved by the loop and its workers. */
    public IngestMetrics(MeterRegistry registry, LoopHealth health) {
        consumed = records(registry, "consumed");
        ingested = records(registry, "ingested");
        quarantined = records(registry, "quarantined");
        ignored = records(registry, "ignored");
        blocked = records(registry, "blocked");
        batchRecords = DistributionSummary.builder("dlq.ingest.batch_records").description("records per batch written in one transaction")
                .register(registry);
        batchFallbacks = Counter.builder("dlq.ingest.batch_fallbacks")
                .description("batches that failed whole and were written again one record at a time").register(registry);
        restarts = Counter.builder("dlq.ingest.loop.restarts").description("times the poll loop was restarted after an error").register(registry);
        for (WriteFailures.Kind kind : WriteFailures.Kind.values()) {
            writeFailures.put(kind, Counter.builder("dlq.ingest.write.failures").tag("kind", kind.name().toLowerCase(Locale.ROOT))
                    .description("failed tries to write a record: connection and transient ones are retried without bound, record ones a bounded number of times")
                    .register(registry));
        }
        for (MalformedPolicy policy : MalformedPolicy.values()) {
            gaveUp.put(policy, Counter.builder("dlq.ingest.write.given_up").tag("then", policy.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                    .description("records whose write kept failing for a reason of their own, then quarantined or held at their partition")
                    .register(registry));
        }
        Gauge.builder("dlq.ingest.in_flight", health, LoopHealth::inFlight).description("records being written").register(registry);
        Gauge.builder("dlq.ingest.loop.heartbeat.age", health, LoopHealth::pollAgeSeconds).baseUnit("seconds")
                .description("time since the poll loop last polled").register(registry);
        Gauge.builder("dlq.ingest.paused_partitions", health, h -> h.blockedPartitions().size())
                .description("partitions held at a malformed record (pause-partition policy)").register(registry);
        Gauge.builder("dlq.ingest.lag", health, LoopHealth::lag).baseUnit("records")
                .description("records behind the log end over the DLQ partitions this instance holds: not fetched yet, or received and not committed")
                .register(registry);
        awaitingCommit = MultiGauge.builder("dlq.ingest.awaiting_commit").description("received records not yet committed, per partition")
                .register(registry);
    }

    private static Counter records(MeterRegistry registry, String outcome) {
        return Counter.builder("dlq.ingest.records").tag("outcome", outcome).register(registry);
    }

    void batchWritten(int records) {
        batchRecords.record(records);
    }

    void batchFellBack() {
        batchFallbacks.increment();
    }

    void consumed() {
        consumed.increment();
    }

    void ingested() {
        ingested.increment();
    }

    void quarantined() {
        quarantined.increment();
    }

    void ignored() {
        ignored.increment();
    }

    void blocked() {
        blocked.increment();
    }

    void restarted() {
        restarts.increment();
    }

    void writeFailed(WriteFailures.Kind kind) {
        writeFailures.get(kind).increment();
    }

    /** A record failure after its last try, handed to {@code then}: quarantined, or its partition held. */
    void gaveUp(MalformedPolicy then) {
        gaveUp.get(then).increment();
    }

    void awaitingCommit(Map<String, Integer> byPartition) {
        List<MultiGauge.Row<?>> rows = byPartition.entrySet().stream()
                .<MultiGauge.Row<?>>map(entry -> MultiGauge.Row.of(Tags.of("partition", entry.getKey()), entry.getValue()))
                .toList();
        awaitingCommit.register(rows, true);
    }
}
