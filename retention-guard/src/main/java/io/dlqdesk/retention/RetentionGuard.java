package io.dlqdesk.retention;

import io.dlqdesk.projections.CappedSeries;
import io.dlqdesk.projections.incident.FindIncidentTopicsQuery;
import io.dlqdesk.periodic.PeriodicTask;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Refuses to be created when the retention budget does not hold (so the service does not start),
 * and checks the source topics at start-up and then every {@code check-interval}: a WARN log for every flagged topic,
 * and a metric series per flagged topic and flag, at most {@code maxSeries} of them (the rest summed as {@code other}).
 * The report endpoint serves the last report while it is younger than {@code report-cache-ttl}.
 */
public class RetentionGuard implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RetentionGuard.class);

    private final RetentionProperties properties;
    private final Duration replayWindow;
    private final TopicRetentionInspector inspector;
    private final QueryGateway queries;
    private final Clock clock;
    private final AtomicInteger flaggedTopics = new AtomicInteger();
    private final MultiGauge flags;
    private final CappedSeries flagSeries;
    private final ReportCache reports;
    private final PeriodicTask rounds;

    public RetentionGuard(RetentionProperties properties, Duration replayWindow, TopicRetentionInspector inspector, QueryGateway queries,
                          MeterRegistry meters, Clock clock, int maxSeries) {
        List<String> violations = new RetentionBudget(replayWindow, properties.clockSkewMargin(), properties.cleanupDelayMargin(),
                properties.consumerIdempotencyRetention()).violations();
        if (!violations.isEmpty()) {
            throw new IllegalStateException("retention budget does not hold, refusing to start: " + String.join("; ", violations));
        }
        this.properties = properties;
        this.replayWindow = replayWindow;
        this.inspector = inspector;
        this.queries = queries;
        this.clock = clock;
        Gauge.builder("dlq.retention.flagged_topics", flaggedTopics, AtomicInteger::get)
                .description("source topics whose retention makes replay unsafe").register(meters);
        this.flags = MultiGauge.builder("dlq.retention.flag")
                .description("1 per flagged source topic and flag; past the series cap, topic=other and flag=other count the rest")
                .register(meters);
        this.flagSeries = new CappedSeries(List.of("topic", "flag"), maxSeries);
        this.reports = new ReportCache(properties.reportCacheTtl(), clock, this::inspect);
        this.rounds = PeriodicTask.named("retention-guard-").firstAfter(Duration.ZERO).every(properties.checkInterval()).runs(this::check);
    }

    /**
     * The source topics seen in incidents plus the configured ones, as the brokers had them at most report-cache-ttl ago
     * (the topics themselves are read from the database on every call: a new one is reported at once).
     */
    public RetentionReport report() {
        return reports.current(topics());
    }

    private TreeSet<String> topics() {
        TreeSet<String> topics = new TreeSet<>(properties.topics());
        topics.addAll(queries.query(new FindIncidentTopicsQuery(), ResponseTypes.multipleInstancesOf(String.class))
                .orTimeout(properties.adminTimeout().toMillis(), TimeUnit.MILLISECONDS).join());
        return topics;
    }

    private RetentionReport inspect(Set<String> topics) {
        return new RetentionReport(clock.instant(), replayWindow.toString(), inspector.inspect(new TreeSet<>(topics), replayWindow));
    }

    void check() {
        try {
            RetentionReport report = reports.refresh(topics());
            List<CappedSeries.Series> series = new ArrayList<>();
            int flagged = 0;
            for (TopicRetention topic : report.topics()) {
                if (topic.flags().isEmpty()) {
                    continue;
                }
                flagged++;
                log.warn("source topic {} is unsafe for replay: {} {} {}", topic.topic(), topic.flags(), topic.configs(),
                        topic.error() == null ? "" : topic.error());
                topic.flags().forEach(flag -> series.add(new CappedSeries.Series(List.of(topic.topic(), flag.name()), 1)));
            }
            flaggedTopics.set(flagged);
            flags.register(flagSeries.rows(series), true);
        } catch (RuntimeException e) {
            log.warn("retention check failed: {}", e.toString());
        }
    }

    @Override
    public void start() {
        rounds.start();
    }

    @Override
    public void stop() {
        rounds.stop();
    }

    @Override
    public boolean isRunning() {
        return rounds.isRunning();
    }

    /** When the report was made, the window it was judged against, and every topic. */
    public record RetentionReport(Instant checkedAt, String replayWindow, List<TopicRetention> topics) {
    }
}
