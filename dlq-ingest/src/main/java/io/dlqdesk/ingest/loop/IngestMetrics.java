package io.dlqdesk.ingest.loop;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;

import java.util.List;
import java.util.Map;

/** Micrometer meters of the ingest loop (prefix {@code dlq.ingest}). */
public final class IngestMetrics {

    private final Counter consumed;
    private final Counter ingested;
    private final Counter quarantined;
    private final Counter ignored;
    private final Counter blocked;
    private final Counter restarts;
    private final MultiGauge awaitingCommit;

    public IngestMetrics(MeterRegistry registry, DlqConsumerLoop loop) {
        consumed = records(registry, "consumed");
        ingested = records(registry, "ingested");
        quarantined = records(registry, "quarantined");
        ignored = records(registry, "ignored");
        blocked = records(registry, "blocked");
        restarts = Counter.builder("dlq.ingest.loop.restarts").description("times the poll loop was restarted after an error").register(registry);
        Gauge.builder("dlq.ingest.in_flight", loop, l -> l.inFlight().get()).description("records being written").register(registry);
        Gauge.builder("dlq.ingest.loop.heartbeat.age", loop, DlqConsumerLoop::heartbeatAgeSeconds).baseUnit("seconds")
                .description("time since the poll loop last polled").register(registry);
        Gauge.builder("dlq.ingest.paused_partitions", loop, DlqConsumerLoop::blockedCount)
                .description("partitions held at a malformed record (pause-partition policy)").register(registry);
        awaitingCommit = MultiGauge.builder("dlq.ingest.awaiting_commit").description("received records not yet committed, per partition")
                .register(registry);
    }

    private static Counter records(MeterRegistry registry, String outcome) {
        return Counter.builder("dlq.ingest.records").tag("outcome", outcome).register(registry);
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

    void awaitingCommit(Map<String, Integer> byPartition) {
        List<MultiGauge.Row<?>> rows = byPartition.entrySet().stream()
                .<MultiGauge.Row<?>>map(entry -> MultiGauge.Row.of(Tags.of("partition", entry.getKey()), entry.getValue()))
                .toList();
        awaitingCommit.register(rows, true);
    }
}
