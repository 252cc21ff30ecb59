package io.dlqdesk.bench;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.dlqdesk.bench.BenchReport.ordered;
import static io.dlqdesk.bench.BenchReport.round0;
import static io.dlqdesk.bench.BenchReport.round2;
import static io.dlqdesk.bench.BenchReport.row;

/** The replay and ingest rounds of a run, product and baselines alternating, and the ingest floors after them. */
final class ReplayAndIngest {

    private ReplayAndIngest() {
    }

    /** Replay and ingest, product and baselines alternating per round; then the ingest floors. An ingest-only run ends here. */
    static void run(BenchSettings settings, ProductUnderTest product, Map<String, Object> json, List<String[]> table)
            throws Exception {
        ReplayBench replay = new ReplayBench(product, settings.replays());
        IngestBench ingest = new IngestBench(product, settings.ingestRecords());
        int rounds = settings.rounds();
        double[] replayProduct = new double[rounds];
        double[] replayBaseline = new double[rounds];
        double[] replayPipelined = new double[rounds];
        double[] ingestDurable = new double[rounds];
        double[] ingestVisible = new double[rounds];
        double[] ingestBaseline = new double[rounds];
        int refailures = 0;
        Map<String, Object> ingestWork = new LinkedHashMap<>();
        Map<String, Object> replayWork = new LinkedHashMap<>();
        Map<String, Object> replayStages = Map.of();
        Map<String, Object> warmUp = new LinkedHashMap<>();
        // round 0 warms the JIT for both sides and is not counted: the ledger is a few classes, the product thousands, and a
        // service meets a storm warm; its rates are printed and kept in latest.json
        for (int round = 0; round <= rounds; round++) {
            List<RecordMetadata> sources = replay.prepare(round);
            double replayed;
            double replayedBaseline;
            double replayedPipelined;
            if (round % 2 == 1) { // the product first in counted rounds 1 and 3, as in the runs before the warm-up round
                replayed = replayProduct(settings, product, replay, round, sources, replayWork);
                replayedBaseline = settings.replays() / replay.baseline(sources);
                replayedPipelined = settings.replays() / replay.pipelinedBaseline(sources);
            } else { // the reverse order: each baseline runs before the product in one round and after it in the next
                replayedPipelined = settings.replays() / replay.pipelinedBaseline(sources);
                replayedBaseline = settings.replays() / replay.baseline(sources);
                replayed = replayProduct(settings, product, replay, round, sources, replayWork);
            }
            replayStages = replay.stages(round);
            System.out.println("round " + round + " replay stages, ms (p50, p99, max): " + replayStages);
            List<ProducerRecord<byte[], byte[]>> refailed = replay.refailures(round, IngestBench.topic(round));
            System.out.println("ingest round " + round + " starts at " + Instant.now()); // to line profiles up with phases
            IngestBench.Result result = ingest.run(round, refailed);
            System.out.println("ingest round " + round + " ends at " + Instant.now());
            refailures = result.refailures();
            ingestWork.put("product", result.productWork());
            ingestWork.put("baseline", result.baselineWork());
            double durable = result.records() / result.productDurableSeconds();
            double visible = result.records() / result.productVisibleSeconds();
            double baseline = result.records() / result.baselineSeconds();
            System.out.printf(Locale.ROOT, "round %d%s: replay %.0f/s (baseline %.0f/s, pipelined baseline %.0f/s); ingest %.0f/s durable, %.0f/s"
                    + " visible (baseline %.0f/s)%n", round, round == 0 ? " (warm-up, not counted)" : "", replayed, replayedBaseline,
                    replayedPipelined, durable, visible, baseline);
            if (round == 0) {
                warmUp.putAll(ordered("replay_per_s", round0(replayed), "replay_baseline_per_s", round0(replayedBaseline),
                        "ingest_durable_per_s", round0(durable), "ingest_visible_per_s", round0(visible), "ingest_baseline_per_s", round0(baseline)));
                continue;
            }
            replayProduct[round - 1] = replayed;
            replayBaseline[round - 1] = replayedBaseline;
            replayPipelined[round - 1] = replayedPipelined;
            ingestDurable[round - 1] = durable;
            ingestVisible[round - 1] = visible;
            ingestBaseline[round - 1] = baseline;
        }
        double[] alone = ingest.writePathAlone(rounds + 1);
        System.out.printf(Locale.ROOT, "ingest, write path alone (event processors stopped): %.0f/s (baseline %.0f/s)%n", alone[0], alone[1]);
        IngestBench.FirstFailures idle = ingest.idleHandlersFloor(rounds + 2);
        System.out.printf(Locale.ROOT, "ingest floor, every processor running with its handlers skipped: %.0f/s durable, %.0f/s read by every processor"
                + " (baseline %.0f/s); per record: %s%n", idle.durablePerSecond(), idle.readByAllPerSecond(), idle.baselinePerSecond(), idle.cpu());
        IngestBench.FirstFailures list = ingest.listAloneFloor(rounds + 3);
        System.out.printf(Locale.ROOT, "the list's floor, every other processor's handlers skipped: %.0f/s durable, %.0f/s in the list"
                + " (baseline %.0f/s); per record: %s%n", list.durablePerSecond(), list.readByAllPerSecond(), list.baselinePerSecond(), list.cpu());
        double ingestRatio = Stats.median(ingestDurable) / Stats.median(ingestBaseline);
        json.put("ingest", ordered("ratio", round2(ingestRatio), "product_per_s", round0(Stats.median(ingestDurable)),
                "baseline_per_s", round0(Stats.median(ingestBaseline)), "product_visible_per_s", round0(Stats.median(ingestVisible)),
                "records", settings.ingestRecords(), "refailures", refailures, "rounds", rounds, "database_work_last_round", ingestWork,
                "write_path_alone_per_s", round0(alone[0]), "write_path_alone_baseline_per_s", round0(alone[1]),
                "idle_handlers_floor", ordered("durable_per_s", round0(idle.durablePerSecond()),
                        "read_by_every_processor_per_s", round0(idle.readByAllPerSecond()), "baseline_per_s", round0(idle.baselinePerSecond()),
                        "cpu", idle.cpu()),
                "list_alone_floor", ordered("durable_per_s", round0(list.durablePerSecond()), "in_the_list_per_s", round0(list.readByAllPerSecond()),
                        "baseline_per_s", round0(list.baselinePerSecond()), "cpu", list.cpu())));
        table.add(row("ingest: records/s until durable", Stats.median(ingestDurable), Stats.median(ingestBaseline), ingestRatio, "≥ 0.7× (goal 1.0×)",
                ingestRatio >= 0.7));
        table.add(row("ingest: write path alone, every event processor stopped (first failures only)", alone[0], alone[1],
                alone[0] / alone[1], "(shown)", true));
        table.add(row("ingest floor: every event processor running, its handlers skipped (first failures only)", idle.durablePerSecond(), idle.baselinePerSecond(),
                idle.durablePerSecond() / idle.baselinePerSecond(), "(shown)", true));
        table.add(row("ingest floor until in the list: only the list's processor working, every other handler skipped (first failures only)",
                list.readByAllPerSecond(), list.baselinePerSecond(), list.readByAllPerSecond() / list.baselinePerSecond(), "(shown)", true));
        double visibleRatio = Stats.median(ingestVisible) / Stats.median(ingestBaseline);
        table.add(row("ingest: records/s until in the incident list", Stats.median(ingestVisible), Stats.median(ingestBaseline), visibleRatio,
                "≥ 0.5× (goal 1.0×)", visibleRatio >= 0.5));
        double replayRatio = Stats.median(replayProduct) / Stats.median(replayBaseline);
        double pipelinedRatio = Stats.median(replayProduct) / Stats.median(replayPipelined);
        json.put("warm_up_round_not_counted", warmUp);
        json.put("replay", ordered("ratio", round2(replayRatio), "product_per_s", round0(Stats.median(replayProduct)),
                "baseline_per_s", round0(Stats.median(replayBaseline)), "pipelined_ratio", Math.round(pipelinedRatio * 10_000) / 10_000.0,
                "pipelined_baseline_per_s", round0(Stats.median(replayPipelined)), "pipelined_baseline_producer", PipelinedBaseline.settings(),
                "replays", settings.replays(), "rounds", rounds,
                "database_work_last_round", replayWork, "stages_last_round_ms", replayStages));
        table.add(row("replay: replays/s until PUBLISHED", Stats.median(replayProduct), Stats.median(replayBaseline), replayRatio, "≥ 0.5×",
                replayRatio >= 0.5));
        table.add(row("replay: replays/s until PUBLISHED, against a pipelined raw producer (acks awaited at the end, linger.ms "
                        + PipelinedBaseline.LINGER_MS + ", batch.size " + PipelinedBaseline.BATCH_SIZE / 1024 + " KiB)",
                Stats.median(replayProduct), Stats.median(replayPipelined), pipelinedRatio, "≥ 1.0×", pipelinedRatio >= 1.0));
        if (settings.ingestOnly()) { // ingest alone, for working on it: its table printed, latest.json untouched
            BenchReport.print(settings, table);
            System.out.println("ingest, last round, per record: " + ingestWork);
            BenchMain.exit(product);
        }
    }

    /** The product's replays/s in one round; its database work per replay and rows per outbox claim go into {@code replayWork}. */
    private static double replayProduct(BenchSettings settings, ProductUnderTest product, ReplayBench replay, int round,
                                        List<RecordMetadata> sources, Map<String, Object> replayWork) throws Exception {
        DatabaseWork work = DatabaseWork.start(product.jdbc);
        MeterDelta claims = MeterDelta.start(product, "dlq.replay.claimed_rows");
        double perSecond = settings.replays() / replay.product(round, sources);
        replayWork.put("product", withClaims(work.per(settings.replays()), claims));
        return perSecond;
    }

    /** Rows per outbox poller round that claimed any, over the replay phase. */
    private static Map<String, Object> withClaims(Map<String, Object> work, MeterDelta claims) {
        work.put("rows_per_outbox_claim", claims.mean());
        return work;
    }
}
