package io.dlqdesk.bench;

import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.rebuild.ReadModelRebuilds;
import io.dlqdesk.rebuild.RebuildPhase;
import io.dlqdesk.rebuild.RebuildView;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.SimpleSerializedObject;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;


/**
 * Rebuild: every read model built again over E events, by the bulk (blue/green) rebuild and by each processor reset and
 * replayed until all reach the event store's head; against a raw JDBC scan of the event table that deserialises every payload with the same serializer.
 */
final class RebuildBench {

    private final ProductUnderTest product;
    private final Map<String, Phases> phases = new LinkedHashMap<>();
    private final Map<String, Double> bulkSeconds = new LinkedHashMap<>();

    RebuildBench(ProductUnderTest product) {
        this.product = product;
    }

    long events() {
        Long count = product.jdbc.queryForObject("SELECT COUNT(*) FROM domain_event_entry", Long.class);
        return count == null ? 0 : count;
    }

    /** Adds incidents opened (real events, through Axon's event store) until the store holds {@code target} events. */
    void topUp(long target) {
        EventStore store = product.app.getBean(EventStore.class);
        TransactionTemplate transactions = new TransactionTemplate(product.app.getBean(PlatformTransactionManager.class));
        String aggregateType = product.jdbc.queryForObject("SELECT MAX(type) FROM domain_event_entry", String.class);
        Instant now = Instant.now();
        long missing = target - events();
        for (long done = 0; done < missing; ) {
            List<GenericDomainEventMessage<IncidentOpened>> batch = new ArrayList<>();
            for (int i = 0; i < 1_000 && done < missing; i++, done++) {
                FailureKey key = new FailureKey("bench-history", (int) (done % Records.PARTITIONS), done, "bench-history-group");
                IncidentId id = IncidentId.of(key);
                batch.add(new GenericDomainEventMessage<>(aggregateType, id.value(), 0, new IncidentOpened(id,
                        new FailedRecord(key, new RecordLocation("bench-history.dlq", 0, done), RecordKey.NONE, null, null, null, null),
                        now, now.plus(Duration.ofDays(7)), List.of())));
            }
            transactions.executeWithoutResult(status -> store.publish(batch));
        }
    }

    /**
     * Seconds from the reset to every read model at the head: each processor's own reset (Axon's resetTokens: the
     * reset handlers empty the tables in the transaction that stores the replay tokens), both at once. Also keeps,
     * per processor, how long its reset took and when it reached the head ({@link #phases()}).
     */
    double product() throws InterruptedException {
        product.awaitProcessorsAtHead();
        long head = product.eventStoreHead();
        phases.clear();
        long started = System.nanoTime();
        for (String name : ProductUnderTest.PROJECTIONS) {
            StreamingEventProcessor processor = product.processor(name);
            long resetting = System.nanoTime();
            processor.shutDown();
            processor.resetTokens();
            phases.put(name, new Phases((System.nanoTime() - resetting) / 1e9));
            processor.start();
        }
        awaitHead(head, started);
        return (System.nanoTime() - started) / 1e9;
    }

    /** Per processor of the last {@link #product()}: its reset and the time from the start of the rebuild to the head. */
    Map<String, Map<String, Double>> phases() {
        Map<String, Map<String, Double>> phases = new LinkedHashMap<>();
        this.phases.forEach((name, phase) -> {
            Map<String, Double> seconds = new LinkedHashMap<>();
            seconds.put("reset_s", Math.round(phase.resetSeconds * 100) / 100.0);
            seconds.put("to_head_s", Math.round(phase.toHeadSeconds * 100) / 100.0);
            phases.put(name, seconds);
        });
        return phases;
    }

    private void awaitHead(long head, long started) throws InterruptedException {
        long nextReport = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!phases.values().stream().allMatch(phase -> phase.toHeadSeconds >= 0)) {
            phases.forEach((name, phase) -> {
                if (phase.toHeadSeconds < 0 && product.reached(name, head)) {
                    phase.toHeadSeconds = (System.nanoTime() - started) / 1e9;
                }
            });
            if (System.nanoTime() > nextReport) {
                nextReport = System.nanoTime() + Duration.ofSeconds(15).toNanos();
                System.out.printf("rebuild: %.0f s, head %d, %s%n", (System.nanoTime() - started) / 1e9, head, status());
            }
            Thread.sleep(5);
        }
    }

    private static final class Phases {
        final double resetSeconds;
        double toHeadSeconds = -1;

        Phases(double resetSeconds) {
            this.resetSeconds = resetSeconds;
        }
    }

    /**
     * Seconds for the bulk (blue/green) rebuild of every read model: one rebuild per processor, one after the other as the
     * service runs them, each from its request to COMPLETED (shadow tables, the scan, indexing, catching up, the swap).
     */
    double bulk() throws InterruptedException {
        product.awaitProcessorsAtHead();
        ReadModelRebuilds rebuilds = product.app.getBean(ReadModelRebuilds.class);
        long started = System.nanoTime();
        for (String processor : ProductUnderTest.PROJECTIONS) {
            long one = System.nanoTime();
            RebuildView rebuild = rebuilds.start(processor, new OperatorAction("bench", "bulk rebuild round", Instant.now()));
            while (!rebuild.phase().ended()) {
                Thread.sleep(5);
                rebuild = rebuilds.find(rebuild.id()).orElseThrow();
            }
            if (rebuild.phase() != RebuildPhase.COMPLETED) {
                throw new IllegalStateException("bulk rebuild of " + processor + " ended " + rebuild.phase() + ": " + rebuild.failure());
            }
            bulkSeconds.put(processor, Math.round((System.nanoTime() - one) / 1e7) / 100.0);
        }
        return (System.nanoTime() - started) / 1e9;
    }

    /** Per processor of the last {@link #bulk()}: seconds from its request to its swap. */
    Map<String, Double> bulkSeconds() {
        return Map.copyOf(bulkSeconds);
    }

    /** Seconds for the bench's no-op processor ({@link AxonFloor}) to read every event from the start, alone. */
    double floor() throws InterruptedException {
        product.awaitProcessorsAtHead();
        long head = product.eventStoreHead();
        StreamingEventProcessor processor = product.processor(AxonFloor.PROCESSING_GROUP);
        processor.shutDown(); // stopped since the service started; resetting needs it stopped whatever happened meanwhile
        processor.resetTokens();
        long started = System.nanoTime();
        processor.start();
        try {
            while (!product.reached(AxonFloor.PROCESSING_GROUP, head)) {
                Thread.sleep(5);
            }
            return (System.nanoTime() - started) / 1e9;
        } finally {
            processor.shutDown();
        }
    }

    private String status() {
        StringBuilder status = new StringBuilder();
        for (String name : ProductUnderTest.PROJECTIONS) {
            product.processor(name).processingStatus().forEach((segment, tracker) -> status.append(name).append('/').append(segment)
                    .append(": position ").append(tracker.getCurrentPosition().orElse(-1)).append(tracker.isReplaying() ? " replaying" : "")
                    .append(tracker.isErrorState() ? " ERROR " + tracker.getError() : "").append("; "));
        }
        return status.toString();
    }

    /**
     * Seconds the database alone needs to write the rows a rebuild writes: each read-model table copied inside the
     * database into an empty twin with the same indexes ({@code INSERT … SELECT}, no client round trips, one
     * transaction a table). No rebuild that writes these rows can be faster; measured after a rebuild, on its rows.
     */
    double writeFloor() {
        return writeFloor(false, Copy.IN_DATABASE);
    }

    /**
     * Seconds the database alone needs to write the same rows the bulk rebuild's way: copied inside it into empty twins
     * without their non-unique secondary indexes, which are then added back with one {@code ALTER TABLE} a table. The bulk
     * rebuild writes these rows too, and reads, deserialises and folds the events besides, on the same cores.
     */
    double bulkWriteFloor() {
        return writeFloor(true, Copy.IN_DATABASE);
    }

    /**
     * As {@link #bulkWriteFloor()}, but every row goes through the JVM: read from the table (streamed) and sent back in
     * the driver's multi-row batches, as a fold that computes its rows in memory must send them. Nothing is computed: the
     * least any such rebuild pays for its rows, before it reads a single event.
     */
    double clientBulkWriteFloor() {
        return writeFloor(true, Copy.BATCHED_INSERTS);
    }

    /** As {@link #clientBulkWriteFloor()}, the rows sent as {@code LOAD DATA LOCAL INFILE} streams instead of inserts. */
    double clientLoadDataFloor() {
        return writeFloor(true, Copy.LOAD_DATA);
    }

    private enum Copy { IN_DATABASE, BATCHED_INSERTS, LOAD_DATA }

    /** The rows copied into twins of the tables; with {@code indexAfter}, into twins without secondary indexes, indexed after. */
    private double writeFloor(boolean indexAfter, Copy copy) {
        Map<String, List<String>> indexes = new LinkedHashMap<>();
        for (String table : READ_MODEL_TABLES) {
            String twin = "bench_floor_" + table;
            product.jdbc.execute("DROP TABLE IF EXISTS " + twin);
            product.jdbc.execute("CREATE TABLE " + twin + " LIKE " + table);
            if (indexAfter) {
                Map<String, String> secondary = new LinkedHashMap<>();
                product.jdbc.query("SELECT index_name, GROUP_CONCAT(column_name ORDER BY seq_in_index) FROM information_schema.statistics"
                        + " WHERE table_schema = DATABASE() AND table_name = ? AND non_unique = 1 GROUP BY index_name",
                        row -> { secondary.put(row.getString(1), row.getString(2)); }, twin);
                secondary.keySet().forEach(index -> product.jdbc.execute("ALTER TABLE " + twin + " DROP INDEX " + index));
                indexes.put(twin, secondary.entrySet().stream().map(index -> "ADD INDEX " + index.getKey() + " (" + index.getValue() + ")")
                        .toList());
            }
        }
        long copying = System.nanoTime();
        for (String table : READ_MODEL_TABLES) {
            switch (copy) {
                case IN_DATABASE -> product.jdbc.execute("INSERT INTO bench_floor_" + table + " SELECT * FROM " + table);
                case BATCHED_INSERTS -> copyThroughClient(table, "bench_floor_" + table);
                case LOAD_DATA -> loadThroughClient(table, "bench_floor_" + table);
            }
        }
        long indexing = System.nanoTime();
        indexes.forEach((twin, added) -> {
            if (!added.isEmpty()) {
                product.jdbc.execute("ALTER TABLE " + twin + " " + String.join(", ", added));
            }
        });
        long done = System.nanoTime();
        for (String table : READ_MODEL_TABLES) {
            product.jdbc.execute("DROP TABLE bench_floor_" + table);
        }
        System.out.printf(java.util.Locale.ROOT, "rebuild: %swrite floor%s %.2f s (rows %.2f s, indexes %.2f s)%n", indexAfter ? "bulk " : "",
                copy == Copy.IN_DATABASE ? "" : " through the JVM (" + copy + ")", (done - copying) / 1e9, (indexing - copying) / 1e9, (done - indexing) / 1e9);
        return (done - copying) / 1e9;
    }

    /** What is done with a table's rows as they stream in: the result set, its column count. */
    @FunctionalInterface
    private interface Rows {
        void accept(ResultSet rows, int columns) throws SQLException, ReflectiveOperationException;
    }

    /** {@code table}'s rows streamed on a connection of their own (the driver would otherwise load the whole table). */
    private void streamRows(String table, Rows consumer) throws SQLException, ReflectiveOperationException {
        try (Connection reading = product.jdbc.getDataSource().getConnection();
             Statement select = reading.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            select.setFetchSize(Integer.MIN_VALUE);
            try (ResultSet rows = select.executeQuery("SELECT * FROM " + table)) {
                consumer.accept(rows, rows.getMetaData().getColumnCount());
            }
        }
    }

    /** Streams {@code table}'s rows and inserts them into {@code twin} on another connection, 1,000 rows a batch, one transaction. */
    private void copyThroughClient(String table, String twin) {
        try (Connection writing = product.jdbc.getDataSource().getConnection()) {
            writing.setAutoCommit(false);
            streamRows(table, (rows, columns) -> {
                String insert = "INSERT INTO " + twin + " VALUES (" + String.join(", ", java.util.Collections.nCopies(columns, "?")) + ")";
                try (PreparedStatement batch = writing.prepareStatement(insert)) {
                    int pending = 0;
                    while (rows.next()) {
                        for (int column = 1; column <= columns; column++) {
                            batch.setObject(column, rows.getObject(column));
                        }
                        batch.addBatch();
                        if (++pending == 1_000) {
                            batch.executeBatch();
                            pending = 0;
                        }
                    }
                    if (pending > 0) {
                        batch.executeBatch();
                    }
                }
            });
            writing.commit();
        } catch (SQLException | ReflectiveOperationException e) {
            throw new IllegalStateException("cannot copy " + table + " through the JVM", e);
        }
    }

    /** Streams {@code table}'s rows and loads them into {@code twin} as tab-separated text, 50,000 rows a {@code LOAD DATA}, one transaction. */
    private void loadThroughClient(String table, String twin) {
        try {
            com.zaxxer.hikari.HikariDataSource pool = product.jdbc.getDataSource().unwrap(com.zaxxer.hikari.HikariDataSource.class);
            java.util.Properties properties = new java.util.Properties();
            properties.setProperty("user", pool.getUsername());
            properties.setProperty("password", pool.getPassword() == null ? "" : pool.getPassword());
            properties.setProperty("allowLoadLocalInfile", "true");
            Class<?> mysqlStatement = Class.forName("com.mysql.cj.jdbc.JdbcStatement");
            java.lang.reflect.Method stream = mysqlStatement.getMethod("setLocalInfileInputStream", java.io.InputStream.class);
            try (Connection writing = java.sql.DriverManager.getConnection(pool.getJdbcUrl(), properties);
                 Statement load = writing.createStatement()) {
                writing.setAutoCommit(false);
                java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream(1 << 20);
                streamRows(table, (rows, columns) -> {
                    int pending = 0;
                    while (rows.next()) {
                        for (int column = 1; column <= columns; column++) {
                            if (column > 1) {
                                text.write('\t');
                            }
                            byte[] value = rows.getBytes(column);
                            if (value == null) {
                                text.write('\\');
                                text.write('N');
                                continue;
                            }
                            for (byte b : value) {
                                switch (b) {
                                    case '\\' -> { text.write('\\'); text.write('\\'); }
                                    case '\t' -> { text.write('\\'); text.write('t'); }
                                    case '\n' -> { text.write('\\'); text.write('n'); }
                                    case 0 -> { text.write('\\'); text.write('0'); }
                                    default -> text.write(b);
                                }
                            }
                        }
                        text.write('\n');
                        if (++pending == 50_000) {
                            loadData(load, stream, mysqlStatement, twin, text);
                            pending = 0;
                        }
                    }
                    if (pending > 0) {
                        loadData(load, stream, mysqlStatement, twin, text);
                    }
                });
                writing.commit();
            }
        } catch (SQLException | ReflectiveOperationException e) {
            throw new IllegalStateException("cannot load " + table + " through the JVM", e);
        }
    }

    /** The rows written to {@code text} so far, as one {@code LOAD DATA} into {@code twin}; {@code text} is emptied. */
    private static void loadData(Statement load, java.lang.reflect.Method stream, Class<?> mysqlStatement, String twin,
                                 java.io.ByteArrayOutputStream text) throws SQLException, ReflectiveOperationException {
        stream.invoke(load.unwrap(mysqlStatement), new java.io.ByteArrayInputStream(text.toByteArray()));
        load.execute("LOAD DATA LOCAL INFILE 'rows' INTO TABLE " + twin + " CHARACTER SET binary");
        text.reset();
    }

    private static final List<String> READ_MODEL_TABLES = List.of("incident_summary", "incident_count", "exception_group", "incident_history",
            "replay_attempt", "incident_status_interval");

    /** Seconds to read and deserialise every event. */
    double baseline() throws InterruptedException {
        product.awaitProcessorsAtHead();
        Serializer serializer = product.app.getBean("eventSerializer", Serializer.class);
        AtomicLong read = new AtomicLong();
        long started = System.nanoTime();
        product.jdbc.query(connection -> {
            PreparedStatement statement = connection.prepareStatement(
                    "SELECT payload_type, payload_revision, payload FROM domain_event_entry ORDER BY global_index",
                    ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
            statement.setFetchSize(Integer.MIN_VALUE); // stream rows: the driver would otherwise load the whole table
            return statement;
        }, row -> {
            Object payload = serializer.deserialize(new SimpleSerializedObject<>(row.getBytes(3), byte[].class, row.getString(1), row.getString(2)));
            if (payload != null) {
                read.incrementAndGet();
            }
        });
        if (read.get() == 0) {
            throw new IllegalStateException("no events read");
        }
        return (System.nanoTime() - started) / 1e9;
    }
}
