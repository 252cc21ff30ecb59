package io.dlqdesk.bench;

import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.TestDatabase;
import io.dlqdesk.testsupport.TestInfrastructure;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.dlqdesk.bench.BenchReport.fmt;
import static io.dlqdesk.bench.BenchReport.ordered;
import static io.dlqdesk.bench.BenchReport.print;
import static io.dlqdesk.bench.BenchReport.round0;
import static io.dlqdesk.bench.BenchReport.round2;
import static io.dlqdesk.bench.BenchReport.row;
import static io.dlqdesk.bench.BenchReport.yes;

/**
 * Every benchmark of issue #9 in one run: ingest, replay, rebuild, queries and memory, each product
 * run next to its baseline on the same data, alternating, medians of several rounds. Prints a markdown
 * table and writes {@code latest.json} into {@code -Dbench.results} (default {@code bench/results}).
 *
 * <pre>bench/run.sh [--quick]</pre>
 * <pre>bench/run.sh --instances</pre> ({@link InstancesBench})
 */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Throwable failure) { // printed and ended here: the embedded servers' threads would keep the JVM waiting
            failure.printStackTrace();
            System.exit(1);
        }
    }

    private static void run(String[] args) throws Exception {
        BenchSettings settings = BenchSettings.from(List.of(args));
        long started = System.nanoTime();
        TestInfrastructure infrastructure = TestInfrastructure.shared();
        if (settings.instances()) { // the service's jar in JVMs of its own, on this run's database server and broker
            InstancesBench.run(infrastructure, started);
            System.exit(0); // the embedded servers' threads are not ours to wait for
        }
        KafkaBroker broker = infrastructure.broker();
        TestDatabase database = infrastructure.databaseFor(BenchMain.class);
        List<String> topics = new ArrayList<>(List.of(MemoryBench.TOPIC));
        for (int round = 0; round <= settings.rounds(); round++) { // round 0 warms up
            topics.addAll(List.of(ReplayBench.sourceTopic(round), ReplayBench.prepTopic(round), IngestBench.topic(round)));
        }
        topics.add(IngestBench.topic(settings.rounds() + 1)); // the write path alone, after the rounds
        topics.add(IngestBench.topic(settings.rounds() + 2)); // and with every handler skipped (the ingest floor)
        topics.add(IngestBench.topic(settings.rounds() + 3)); // and with only the list's handlers working (the list's floor)
        Records.createTopics(broker, topics); // before the service starts, so its ingest loop reads them from the start

        Map<String, Object> json = new LinkedHashMap<>();
        List<String[]> table = new ArrayList<>();
        try (ProductUnderTest product = ProductUnderTest.start(database, broker,
                "bench-(prep|ingest)-[0-9]+\\.dlq|" + MemoryBench.TOPIC.replace(".", "\\."))) {
            BaselineLedger.createTable(product.jdbc);
            if (settings.rebuildOnly()) { // the rebuild alone, for working on it: its table printed, latest.json untouched
                rebuild(settings, product, json, table);
                print(settings, table);
                System.out.println("rebuild: " + ((Map<?, ?>) json.get("rebuild")).get("database_work_last_round"));
                exit(product);
            }
            if (settings.memoryOnly()) { // the memory benchmark alone, on a fresh service: latest.json untouched
                MemoryBench.Result memory = MemoryBench.run(product, settings.memoryRecords(), settings.databasePauseSeconds());
                System.out.printf(Locale.ROOT, "memory: peak live heap %.0f MiB (used %.0f MiB), database paused %.0f s%n", memory.peakLiveMb(),
                        memory.peakUsedMb(), memory.pausedSeconds());
                exit(product);
            }
            ReplayAndIngest.run(settings, product, json, table);

            rebuild(settings, product, json, table);
            statementCeilings(json, table);

            memory(settings, product, json, table);
        }

        queries(settings, infrastructure, json, table);

        BenchReport.finish(settings, json, table, started);
        System.exit(0); // the embedded servers' threads are not ours to wait for
    }

    private static void memory(BenchSettings settings, ProductUnderTest product, Map<String, Object> json, List<String[]> table)
            throws Exception {
        MemoryBench.Result memory = MemoryBench.run(product, settings.memoryRecords(), settings.databasePauseSeconds());
        json.put("memory", ordered("peak_heap_mb", round0(memory.peakLiveMb()), "peak_heap_used_mb", round0(memory.peakUsedMb()),
                "max_heap_mb", round0(memory.maxHeapMb()), "database_paused_s", round0(memory.pausedSeconds()), "records", memory.records()));
        table.add(new String[] {"memory: peak live heap (after GC), MiB, DB paused " + Math.round(memory.pausedSeconds()) + " s",
                fmt(memory.peakLiveMb()), "—", "—", "< 512", memory.peakLiveMb() < 512 && memory.paused() ? "yes" : "no"});
    }

    /** The read models' query latencies, on a database of their own. */
    private static void queries(BenchSettings settings, TestInfrastructure infrastructure, Map<String, Object> json, List<String[]> table)
            throws Exception {
        Map<String, double[]> query = ReadModelLatency.run(infrastructure, settings.queryIncidents(), settings.queryRequests());
        double listP99 = Stats.percentile(query.get(ReadModelLatency.LIST), 0.99);
        double countP99 = Stats.percentile(query.get(ReadModelLatency.COUNT), 0.99);
        double asOfP99 = Stats.percentile(query.get(ReadModelLatency.AS_OF), 0.99);
        Map.Entry<String, Double> slowestPage = query.entrySet().stream().filter(entry -> entry.getKey().startsWith("console:"))
                .map(entry -> Map.entry(entry.getKey(), Stats.percentile(entry.getValue(), 0.99))).max(Map.Entry.comparingByValue()).orElseThrow();
        json.put("query", ordered("list_p99_ms", round2(listP99), "count_p99_ms", round2(countP99), "as_of_p99_ms", round2(asOfP99),
                "as_of_p50_ms", round2(Stats.percentile(query.get(ReadModelLatency.AS_OF), 0.5)),
                "as_of_ten_times_history_p50_ms", round2(Stats.percentile(query.get(ReadModelLatency.AS_OF_TEN_TIMES), 0.5)),
                "as_of_rows_read_per_page", round2(query.get(ReadModelLatency.AS_OF_ROWS_READ)[0]),
                "as_of_ten_times_history_rows_read_per_page", round2(query.get(ReadModelLatency.AS_OF_TEN_TIMES_ROWS_READ)[0]),
                "list_p50_ms", round2(Stats.percentile(query.get(ReadModelLatency.LIST), 0.5)),
                "count_p50_ms", round2(Stats.percentile(query.get(ReadModelLatency.COUNT), 0.5)),
                "console_slowest_page_p99_ms", round2(slowestPage.getValue()), "console_slowest_page", slowestPage.getKey(),
                "incidents", settings.queryIncidents(), "requests", settings.queryRequests()));
        table.add(new String[] {"query: list p99 ms (" + settings.queryIncidents() + " incidents)", fmt(listP99), "—", "—", "< 50", yes(listP99 < 50)});
        table.add(new String[] {"query: open count p99 ms", fmt(countP99), "—", "—", "< 50", yes(countP99 < 50)});
        table.add(new String[] {"query: as-of audit p99 ms (first page of 100)", fmt(asOfP99), "—", "—", "< 50", yes(asOfP99 < 50)});
        table.add(new String[] {"query: slowest console page p99 ms (" + slowestPage.getKey().substring("console: ".length()) + ")",
                fmt(slowestPage.getValue()), "—", "—", "< 100", yes(slowestPage.getValue() < 100)});
        double asOfGrowth = Stats.percentile(query.get(ReadModelLatency.AS_OF_TEN_TIMES), 0.5) / Stats.percentile(query.get(ReadModelLatency.AS_OF), 0.5);
        table.add(new String[] {"query: as-of p50 with 10× the history before the instant / as-of p50", fmt(asOfGrowth), "—", "—", "≤ 1.2",
                yes(asOfGrowth <= 1.2)});
        double asOfReadGrowth = query.get(ReadModelLatency.AS_OF_TEN_TIMES_ROWS_READ)[0] / query.get(ReadModelLatency.AS_OF_ROWS_READ)[0];
        table.add(new String[] {"query: as-of rows read per page with 10× the history / without (" + fmt(query.get(ReadModelLatency.AS_OF_ROWS_READ)[0])
                + " without)", fmt(asOfReadGrowth), "—", "—", "≤ 1.2", yes(asOfReadGrowth <= 1.2)});
    }

    /** A partial run ends here: the service closed first, so its shutdown never waits on servers already stopped. */
    static void exit(ProductUnderTest product) {
        product.close();
        System.exit(0);
    }

    /**
     * The read models' rebuild against the raw scan, rounds alternating; beside it three floors: one no-op Axon processor
     * (every round) and the database alone writing the rebuilt rows, with every index and the bulk way (once each, after
     * the rounds).
     */
    private static void rebuild(BenchSettings settings, ProductUnderTest product, Map<String, Object> json, List<String[]> table)
            throws InterruptedException {
        RebuildBench rebuild = new RebuildBench(product);
        System.out.println("rebuild: adding events up to " + settings.rebuildEvents() + " (" + Instant.now() + ")");
        rebuild.topUp(settings.rebuildEvents());
        System.out.println("rebuild: " + rebuild.events() + " events (" + Instant.now() + ")");
        long events = rebuild.events();
        int rounds = settings.rounds();
        double[] rebuildProduct = new double[rounds];
        double[] rebuildBaseline = new double[rounds];
        double[] rebuildFloor = new double[rounds];
        double[] rebuildBulk = new double[rounds];
        Map<String, Object> rebuildWork = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            if (round % 2 == 1) {
                rebuildBaseline[round] = events / rebuild.baseline();
            }
            DatabaseWork bulkWork = DatabaseWork.start(product.jdbc);
            CpuWork bulkCpu = CpuWork.start(product.databaseServer);
            rebuildBulk[round] = events / rebuild.bulk();
            Map<String, Object> bulkProductWork = bulkWork.per(events);
            bulkProductWork.put("cpu", bulkCpu.per(events));
            bulkProductWork.put("seconds_per_processor", rebuild.bulkSeconds());
            rebuildWork.put("bulk", bulkProductWork);
            DatabaseWork work = DatabaseWork.start(product.jdbc);
            CpuWork cpu = CpuWork.start(product.databaseServer);
            ProcessorBatches batches = ProcessorBatches.start(product);
            rebuildProduct[round] = events / rebuild.product();
            Map<String, Object> productWork = work.per(events);
            productWork.put("cpu", cpu.per(events));
            productWork.put("events_per_processor_transaction", batches.eventsPerTransaction());
            productWork.put("processor_transactions_by_events", batches.transactionsBySize());
            productWork.put("reset_and_time_to_head", rebuild.phases());
            rebuildWork.put("product", productWork);
            if (round % 2 == 0) {
                rebuildBaseline[round] = events / rebuild.baseline();
            }
            rebuildFloor[round] = events / rebuild.floor();
            System.out.printf(Locale.ROOT, "rebuild round %d: bulk %.0f events/s (%s s per processor); through the processors %.0f events/s"
                            + " (baseline %.0f/s; one no-op Axon processor %.0f/s); per processor, its reset and the head: %s%n",
                    round + 1, rebuildBulk[round], rebuild.bulkSeconds(), rebuildProduct[round], rebuildBaseline[round], rebuildFloor[round],
                    rebuild.phases());
        }
        double writeFloor = events / rebuild.writeFloor();
        double bulkWriteFloor = events / rebuild.bulkWriteFloor();
        double clientBulkWriteFloor = events / rebuild.clientBulkWriteFloor();
        double clientLoadDataFloor = Double.NaN;
        try {
            clientLoadDataFloor = events / rebuild.clientLoadDataFloor();
        } catch (IllegalStateException e) { // a MySQL 8 server has local_infile off unless its operator turned it on
            System.out.println("rebuild: the LOAD DATA floor was not measured: " + e.getMessage() + " (" + e.getCause() + ")");
        }
        double rebuildRatio = Stats.median(rebuildProduct) / Stats.median(rebuildBaseline);
        double bulkRatio = Stats.median(rebuildBulk) / Stats.median(rebuildBaseline);
        json.put("rebuild", ordered("bulk_ratio", round2(bulkRatio), "bulk_per_s", round0(Stats.median(rebuildBulk)),
                "ratio", round2(rebuildRatio), "product_per_s", round0(Stats.median(rebuildProduct)),
                "baseline_per_s", round0(Stats.median(rebuildBaseline)), "events", events, "projections", ProductUnderTest.PROJECTIONS,
                "rounds", rounds, "database_work_last_round", rebuildWork,
                "one_noop_axon_processor_per_s", round0(Stats.median(rebuildFloor)), "database_write_floor_per_s", round0(writeFloor),
                "database_bulk_write_floor_per_s", round0(bulkWriteFloor), "rows_through_the_jvm_bulk_write_floor_per_s",
                round0(clientBulkWriteFloor), "rows_through_the_jvm_load_data_floor_per_s",
                Double.isNaN(clientLoadDataFloor) ? null : round0(clientLoadDataFloor)));
        table.add(row("rebuild, bulk (blue/green): events/s, " + ProductUnderTest.PROJECTIONS.size() + " processors' read models over " + events
                + " events", Stats.median(rebuildBulk), Stats.median(rebuildBaseline), bulkRatio, "≥ 0.25× (goal 0.5×)", bulkRatio >= 0.25));
        table.add(row("rebuild through the processors (reset and replay): events/s, " + ProductUnderTest.PROJECTIONS.size() + " processors over "
                + events + " events", Stats.median(rebuildProduct), Stats.median(rebuildBaseline), rebuildRatio, "(shown)", true));
        table.add(row("rebuild floor: the database alone writing the read models' rows (copied inside it, same indexes)", writeFloor,
                Stats.median(rebuildBaseline), writeFloor / Stats.median(rebuildBaseline), "(shown)", true));
        table.add(row("rebuild floor: the database alone writing them the bulk way (copied into tables without secondary indexes,"
                + " then indexed)", bulkWriteFloor, Stats.median(rebuildBaseline), bulkWriteFloor / Stats.median(rebuildBaseline), "(shown)", true));
        table.add(row("rebuild floor: the same, every row sent from the JVM (streamed out, sent back in multi-row batches, nothing"
                + " computed)", clientBulkWriteFloor, Stats.median(rebuildBaseline), clientBulkWriteFloor / Stats.median(rebuildBaseline),
                "(shown)", true));
        double floorRatio = Stats.median(rebuildFloor) / Stats.median(rebuildBaseline);
        if (!Double.isNaN(clientLoadDataFloor)) {
            table.add(row("rebuild floor: the same, every row sent from the JVM as LOAD DATA LOCAL INFILE streams", clientLoadDataFloor,
                    Stats.median(rebuildBaseline), clientLoadDataFloor / Stats.median(rebuildBaseline), "(shown)", true));
        }
        table.add(row("rebuild floor: one no-op Axon processor (as a read model's) over the same events", Stats.median(rebuildFloor),
                Stats.median(rebuildBaseline), floorRatio, "(shown)", true));
    }

    /**
     * The ceilings on statements (round trips) per item, checked against each benchmark's last round: a row each in
     * the table and {@code statements_per_item_checked} in latest.json.
     */
    private static void statementCeilings(Map<String, Object> json, List<String[]> table) {
        Map<String, Object> checked = new LinkedHashMap<>();
        for (Map.Entry<String, Double> ceiling : List.of(Map.entry("ingest", 1.5), Map.entry("rebuild", 0.1), Map.entry("replay", 40.0))) {
            Map<?, ?> work = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) json.get(ceiling.getKey())).get("database_work_last_round")).get("product");
            double perItem = ((Number) work.get("statements_per_item")).doubleValue();
            boolean met = perItem <= ceiling.getValue();
            checked.put(ceiling.getKey(), ordered("per_item", perItem, "ceiling", ceiling.getValue(), "met", met));
            table.add(new String[] {"statements per item, last round: " + ceiling.getKey(), String.format(Locale.ROOT, "%.2f", perItem), "—", "—",
                    "≤ " + ceiling.getValue(), yes(met)});
        }
        json.put("statements_per_item_checked", checked);
    }
}
