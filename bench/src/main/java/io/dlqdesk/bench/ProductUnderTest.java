package io.dlqdesk.bench;

import io.dlqdesk.app.DlqDeskApplication;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.projections.ProjectionsConfiguration;
import io.dlqdesk.projections.readiness.ReplayAttemptProjection;
import io.dlqdesk.replay.request.ReplaySwitch;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The whole service, in this JVM, as shipped but for where its data lives and which DLQ topics it reads. */
final class ProductUnderTest implements AutoCloseable {

    /** The read models' processors: the incident list, history and as-of together, and the rollback facts. */
    static final List<String> PROJECTIONS = List.of(ProjectionsConfiguration.INCIDENT_READ_MODELS, ReplayAttemptProjection.PROCESSING_GROUP);

    final ConfigurableApplicationContext app;
    final JdbcTemplate jdbc;
    final KafkaBroker broker;
    /** The database's server process when it runs on this machine: paused by the memory bench, its CPU counted by {@link CpuWork}. */
    final Optional<ProcessHandle> databaseServer;

    private ProductUnderTest(ConfigurableApplicationContext app, KafkaBroker broker, String jdbcUrl) {
        this.app = app;
        this.jdbc = app.getBean(JdbcTemplate.class);
        this.broker = broker;
        this.databaseServer = databaseServer(jdbcUrl);
    }

    static ProductUnderTest start(TestDatabase database, KafkaBroker broker, String ingestPattern) {
        List<String> args = new ArrayList<>(List.of(
                "--spring.datasource.url=" + database.jdbcUrl(), "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(), "--spring.kafka.bootstrap-servers=" + broker.bootstrapServers(),
                "--server.port=0", "--server.address=127.0.0.1", "--dlqdesk.ingest.topic-pattern=" + ingestPattern,
                "--dlqdesk.events-topic=bench-incident-events", "--logging.level.root=WARN", "--dlqdesk.replay.allowed-topics=.*",
                "--spring.datasource.hikari.data-source-properties.queryInterceptors=" + RoundTrips.class.getName()));
        args.addAll(List.of(AxonFloor.PROPERTIES));
        String extra = System.getProperty("bench.product.args", ""); // e.g. a driver setting to try, without editing the shipped configuration
        if (!extra.isBlank()) {
            args.addAll(List.of(extra.trim().split("\\s+")));
        }
        ConfigurableApplicationContext app = new SpringApplicationBuilder(DlqDeskApplication.class, AxonFloor.class, IdleHandlers.class).run(args.toArray(String[]::new));
        ProductUnderTest product = new ProductUnderTest(app, broker, database.jdbcUrl());
        product.processor(AxonFloor.PROCESSING_GROUP).shutDown(); // only ever run alone, by the rebuild bench
        app.getBean(ReplaySwitch.class).set(true, new OperatorAction("bench", "benchmark replays", Instant.now()));
        return product;
    }

    /** DLQ records written as incidents or correlated failures so far (the ingest loop's own counter). */
    long ingested() {
        return (long) app.getBean(MeterRegistry.class).counter("dlq.ingest.records", "outcome", "ingested").count();
    }

    long eventStoreHead() {
        Long head = jdbc.queryForObject("SELECT MAX(global_index) FROM domain_event_entry", Long.class);
        return head == null ? -1 : head;
    }

    /**
     * Waits until every running streaming processor has read every stored event: a measured phase starts on a quiet
     * service, not one still publishing or projecting the phase before (the Kafka publisher trails a storm by tens of seconds).
     */
    void awaitProcessorsAtHead() throws InterruptedException {
        long head = eventStoreHead();
        long started = System.nanoTime();
        Progress.until(() -> allReached(head), Duration.ofMinutes(10));
        double waited = (System.nanoTime() - started) / 1e9;
        if (waited > 1) {
            System.out.printf(Locale.ROOT, "bench: %.1f s for every processor to reach the head (%d)%n", waited, head);
        }
    }

    /** Every running streaming processor (the bench's own stopped ones aside) has handled events up to {@code index}. */
    boolean allReached(long index) {
        return app.getBean(EventProcessingConfiguration.class).eventProcessors().values().stream()
                .filter(processor -> processor instanceof StreamingEventProcessor && processor.isRunning())
                .allMatch(processor -> reached(processor.getName(), index));
    }

    StreamingEventProcessor processor(String name) {
        return app.getBean(EventProcessingConfiguration.class).eventProcessor(name, StreamingEventProcessor.class).orElseThrow();
    }

    /**
     * Every segment of the processor has handled events up to {@code index}. Not "and is done replaying":
     * a replay token reports replaying until an event past the reset point arrives, which may be never.
     */
    boolean reached(String processor, long index) {
        var statuses = processor(processor).processingStatus().values();
        return !statuses.isEmpty() && statuses.stream().allMatch(status -> !status.isErrorState()
                && status.getCurrentPosition().orElse(-1) >= index);
    }

    /** The server process listening on the database's port, when it runs on this machine (the embedded MariaDB does). */
    static Optional<ProcessHandle> databaseServer(String jdbcUrl) {
        Matcher port = Pattern.compile("//(127\\.0\\.0\\.1|localhost):(\\d+)/").matcher(jdbcUrl);
        if (!port.find()) {
            System.out.println("bench: the database at " + jdbcUrl + " is not a local process: the memory bench does not pause it, its CPU is not counted");
            return Optional.empty();
        }
        String argument = "--port=" + port.group(2);
        List<ProcessHandle> servers = ProcessHandle.allProcesses()
                .filter(process -> process.info().command().map(command -> command.endsWith("/mariadbd") || command.endsWith("/mysqld")).orElse(false))
                .filter(process -> process.info().arguments().map(arguments -> List.of(arguments).contains(argument)).orElse(false))
                .toList();
        if (servers.size() != 1) {
            System.out.println("bench: " + servers.size() + " database server processes with " + argument + ": none paused or counted");
            return Optional.empty();
        }
        return Optional.of(servers.get(0));
    }

    @Override
    public void close() {
        app.close();
    }
}
