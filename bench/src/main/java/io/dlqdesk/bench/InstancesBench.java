package io.dlqdesk.bench;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.TestDatabase;
import io.dlqdesk.testsupport.TestInfrastructure;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

import static io.dlqdesk.bench.BenchReport.fmt;
import static io.dlqdesk.bench.BenchReport.ordered;
import static io.dlqdesk.bench.BenchReport.round0;
import static io.dlqdesk.bench.BenchReport.round2;

/**
 * The service as users run it (its runnable jar, each instance a JVM of its own) as 1, 2 and 3 instances on one database
 * server and one broker, as in production. Each count gets fresh data: a database of its own and topics of its own. Once
 * every instance is ready and the work is spread ({@link InstanceCluster#awaitSpread}), a warm-up (a fifth of the sizes,
 * not counted: the JVMs are new), then, each after every processor has caught up:
 * <ul>
 *   <li>ingest: {@link #DEFAULT_RECORDS} DLQ records over 6 partitions, first failures as {@link IngestBench} writes them
 *   (one in sixty of a real source record, for the replays), records/s from the first stored to the last
 *   ({@code IncidentOpened} events in the event store: durable) and to the last row in {@code incident_summary} (in the list);</li>
 *   <li>replay: {@link #DEFAULT_REPLAYS} of those incidents replayed through the REST API as an operator (a bearer token), {@link #REQUEST_THREADS}
 *   client threads sending to the instances in turn, replays/s from the first request until all are PUBLISHED
 *   ({@code replay_attempt}, as {@link ReplayBench} counts them).</li>
 * </ul>
 * A measured phase waits (up to 10 minutes) for the rest of a shared machine to go quiet, and reports the CPU the
 * instances, the database, this JVM (broker and load) and everything else used during it ({@link ClusterCpu}). Each count
 * is measured {@link #ATTEMPTS} times on fresh records, and the attempt least disturbed by other processes is reported.
 * The instances are then stopped with SIGTERM. Prints a markdown table; merges its results into {@code latest.json} under
 * {@code instances} (the other keys kept) and appends a line to {@code history.jsonl}. Sizes other than the defaults
 * ({@code -Dbench.instances.records}, {@code -Dbench.instances.replays}, {@code -Dbench.instances.counts=1,2}) are a trial:
 * printed, nothing written.
 */
final class InstancesBench {

    static final int DEFAULT_RECORDS = 30_000;
    static final int DEFAULT_REPLAYS = 500;
    static final List<Integer> DEFAULT_COUNTS = List.of(1, 2, 3);
    /** Replay requests in flight at once, the same for every count, sent to the instances in turn. */
    static final int REQUEST_THREADS = 8;
    private static final Duration STALL = Duration.ofMinutes(2);
    /**
     * A measured phase starts once the rest of a shared machine keeps less than this busy (3 s sampled), or after
     * {@link #QUIET_WAIT} regardless; what the others used during each phase is reported beside it.
     */
    private static final double QUIET_CORES = 0.25;
    private static final Duration QUIET_WAIT = Duration.ofMinutes(Long.getLong("bench.instances.quiet-wait-minutes", 10));
    /**
     * Measurements per count, each on fresh records, every count the same number (so each count's reported attempt is as
     * warm as the others'): the least disturbed is reported, the later of two within 0.05 cores (other processes' average
     * cores during its ingest or replay, the larger).
     */
    static final int ATTEMPTS = 2;

    private InstancesBench() {
    }

    record Sizes(List<Integer> counts, int records, int replays) {

        static Sizes fromProperties() {
            List<Integer> counts = Arrays.stream(System.getProperty("bench.instances.counts", "1,2,3").split(",")).map(String::trim)
                    .map(Integer::valueOf).toList();
            Sizes sizes = new Sizes(counts, Integer.getInteger("bench.instances.records", DEFAULT_RECORDS),
                    Integer.getInteger("bench.instances.replays", DEFAULT_REPLAYS));
            if (sizes.replays() > sizes.records() || counts.isEmpty()) {
                throw new IllegalArgumentException("replays are of the ingested incidents, so at most as many as records: " + sizes);
            }
            return sizes;
        }

        boolean standard() {
            return counts.equals(DEFAULT_COUNTS) && records == DEFAULT_RECORDS && replays == DEFAULT_REPLAYS;
        }
    }

    /**
     * One count's topics: the DLQ topic of the measured storm and the warm-up's (both read by the instances), and the source
     * topics of the incidents replayed in each (not DLQ topics: never read by them).
     */
    record RoundTopics(String nonce, int count) {

        String prefix() {
            return "bench-instances-" + nonce + "-";
        }

        /** The DLQ topic of measurement {@code attempt}. */
        String storm(int attempt) {
            return prefix() + "storm-" + attempt + "-" + count + ".dlq";
        }

        String warmUp() {
            return prefix() + "warm-" + count + ".dlq";
        }

        /** What the instances read: the warm-up's and every attempt's DLQ topic, none of another count. */
        String pattern() {
            return prefix() + "(warm|storm-[0-9]+)-" + count + "\\.dlq";
        }

        String sources(int attempt) {
            return prefix() + "src-" + attempt + "-" + count;
        }

        String warmUpSources() {
            return prefix() + "warm-src-" + count;
        }

        List<String> all() {
            List<String> all = new ArrayList<>(List.of(warmUp(), warmUpSources()));
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                all.addAll(List.of(storm(attempt), sources(attempt)));
            }
            return all;
        }
    }

    /** One count's measurements. */
    record Round(int instances, double durablePerSecond, double inListPerSecond, double replaysPerSecond, Map<String, Object> json) {
    }

    /** What the ingest phase measured: its rates and the work it cost. */
    private record Ingested(double durablePerSecond, double inListPerSecond, Map<String, Object> json) {
    }

    /** What the replay phase measured: its rate and the work it cost. */
    private record Replayed(double perSecond, Map<String, Object> json) {
    }

    static void run(TestInfrastructure infrastructure, long started) throws Exception {
        Sizes sizes = Sizes.fromProperties();
        Path results = Path.of(System.getProperty("bench.results", "bench/results")).toAbsolutePath();
        Path work = results.getParent().resolve("target").resolve("instances");
        Path jar = copyOfJar(results.getParent().getParent(), work);
        String nonce = Long.toString(System.currentTimeMillis(), 36); // topics and groups of this run only, on a broker that may be yours
        List<String> topics = sizes.counts().stream().flatMap(count -> new RoundTopics(nonce, count).all().stream()).toList();
        Records.createTopics(infrastructure.broker(), topics); // all at once and first: a topic is written only once it has its leaders
        awaitLeaders(infrastructure.broker(), topics);
        System.out.printf(Locale.ROOT, "instances: %s instances of %s, %d records and %d replays each (%s)%n", sizes.counts(), jar,
                sizes.records(), sizes.replays(), Instant.now());
        List<Round> rounds = new ArrayList<>();
        for (int count : sizes.counts()) {
            rounds.add(round(infrastructure, jar, work.resolve("logs"), nonce, count, sizes));
        }
        Map<String, Object> json = report(sizes, rounds, jar, started);
        if (!sizes.standard()) {
            System.out.println("instances: trial sizes, latest.json and history.jsonl untouched");
            return;
        }
        write(results, json, rounds);
    }

    /** Waits until every partition of {@code topics} has a leader: an idempotent producer's first sends then find it. */
    private static void awaitLeaders(KafkaBroker broker, List<String> topics) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        try (Admin admin = broker.admin()) {
            while (true) {
                try {
                    if (admin.describeTopics(topics).allTopicNames().get(10, TimeUnit.SECONDS).values().stream()
                            .allMatch(topic -> topic.partitions().stream().allMatch(partition -> partition.leader() != null))) {
                        return;
                    }
                } catch (ExecutionException notYetKnown) {
                    if (System.nanoTime() > deadline) {
                        throw notYetKnown;
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("partitions without a leader after a minute: " + topics);
                }
                Thread.sleep(100);
            }
        }
    }

    /** The jar as built (app/target/app-&lt;version&gt;-exec.jar, or -Dbench.exec.jar), copied: a build meanwhile cannot change it. */
    private static Path copyOfJar(Path repository, Path work) throws IOException {
        String configured = System.getProperty("bench.exec.jar", "");
        Path built;
        if (!configured.isBlank()) {
            built = Path.of(configured);
        } else {
            Path target = repository.resolve("app").resolve("target");
            try (Stream<Path> jars = Files.isDirectory(target) ? Files.list(target) : Stream.empty()) {
                built = jars.filter(path -> path.getFileName().toString().matches("app-.+-exec\\.jar")).findFirst().orElse(target.resolve("app-<version>-exec.jar"));
            }
        }
        if (!Files.isRegularFile(built)) {
            throw new IllegalStateException("no runnable jar at " + built + ": build it with ./mvnw -pl app -am package -DskipTests"
                    + " (bench/run.sh --instances does), or name one with -Dbench.exec.jar=<path>");
        }
        Files.createDirectories(work);
        Path copy = work.resolve("app-exec.jar");
        Files.copy(built, copy, StandardCopyOption.REPLACE_EXISTING);
        System.out.printf(Locale.ROOT, "instances: the jar %s (built %s), copied to %s%n", built, Files.getLastModifiedTime(built), copy);
        return copy;
    }

    private static Round round(TestInfrastructure infrastructure, Path jar, Path logs, String nonce, int count, Sizes sizes) throws Exception {
        KafkaBroker broker = infrastructure.broker();
        TestDatabase database = infrastructure.database().createFreshDatabase("bench_instances_" + count);
        RoundTopics topics = new RoundTopics(nonce, count);
        String prefix = topics.prefix();
        int warmUpRecords = sizes.records() / 5;
        int warmUpReplays = sizes.replays() / 5;
        List<RecordMetadata> warmUpSources = ReplayBench.sendSources(broker, topics.warmUpSources(), topics.warmUpSources(), warmUpReplays);
        List<List<RecordMetadata>> sources = new ArrayList<>();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            sources.add(ReplayBench.sendSources(broker, topics.sources(attempt), topics.sources(attempt), sizes.replays()));
        }

        BearerTokens tokens = BearerTokens.create(logs.getParent());
        Map<String, Object> properties = new LinkedHashMap<>(tokens.properties());
        properties.put("spring.datasource.url", database.jdbcUrl());
        properties.put("spring.datasource.username", database.username());
        properties.put("spring.datasource.password", database.password());
        properties.put("spring.kafka.bootstrap-servers", broker.bootstrapServers());
        properties.put("dlqdesk.ingest.topic-pattern", topics.pattern());
        properties.put("dlqdesk.ingest.group-id", prefix + count + "-ingest");
        properties.put("dlqdesk.events-topic", prefix + count + "-incident-events");
        properties.put("logging.level.root", "WARN");
        properties.put("dlqdesk.replay.allowed-topics", ".*");
        for (String extra : System.getProperty("bench.instances.args", "").trim().split("\\s+")) { // a setting to try, as name=value
            if (!extra.isBlank()) {
                String[] setting = extra.replaceFirst("^--", "").split("=", 2);
                properties.put(setting[0], setting.length > 1 ? setting[1] : "");
            }
        }

        Optional<ProcessHandle> databaseServer = ProductUnderTest.databaseServer(database.jdbcUrl());
        long starting = System.nanoTime();
        try (InstanceCluster cluster = InstanceCluster.start(count, jar, logs, database, broker, prefix + count + "-ingest", properties)) {
            double readySeconds = (System.nanoTime() - starting) / 1e9;
            Map<String, Object> spread = cluster.awaitSpread(topics.storm(0), Duration.ofMinutes(3));
            double spreadSeconds = (System.nanoTime() - starting) / 1e9;
            System.out.printf(Locale.ROOT, "instances %d: ready in %.0f s, spread in %.0f s: %s%n", count, readySeconds, spreadSeconds, spread);
            HttpResponse<String> on = cluster.instances.get(0).put("/api/v1/replay-switch", tokens.authorization("ADMIN"), "{\"enabled\":true,\"reason\":\"bench\"}");
            if (on.statusCode() != 200) {
                throw new IllegalStateException("the replay switch was not turned on: " + on.statusCode() + " " + on.body());
            }

            String warmUpGroup = prefix + count + "-warm-consumer";
            ingest(cluster, databaseServer, broker, topics.warmUp(), prefix + "orig-warm-" + count, warmUpSources, warmUpGroup, warmUpRecords);
            replay(cluster, databaseServer, warmUpSources, warmUpGroup, tokens.authorization("OPERATOR"));
            double warmUpQuiet = cluster.awaitQuiet(Duration.ofMinutes(5));
            System.out.printf(Locale.ROOT, "instances %d: warmed up (%d records, %d replays; every processor at the head %.1f s after)%n",
                    count, warmUpRecords, warmUpReplays, warmUpQuiet);

            List<Map<String, Object>> attempts = new ArrayList<>();
            Attempt best = null;
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                Attempt measured = attempt(cluster, databaseServer, broker, topics, attempt, sources.get(attempt), sizes, tokens);
                attempts.add(ordered("attempt", attempt, "other_processes_cores", measured.disturbance(),
                        "ingest_durable_per_s", round0(measured.ingest().durablePerSecond()), "ingest_in_list_per_s",
                        round0(measured.ingest().inListPerSecond()), "replay_per_s", round0(measured.replay().perSecond())));
                if (best == null || measured.disturbance() <= best.disturbance() + 0.05) {
                    best = measured;
                }
            }
            double stopSeconds = cluster.stop();
            System.out.printf(Locale.ROOT, "instances %d: stopped (SIGTERM) in %.1f s; attempt %d reported%n", count, stopSeconds, best.attempt());
            Map<String, Object> json = ordered("instances", count, "ready_s", round2(readySeconds), "spread_s", round2(spreadSeconds),
                    "spread", spread, "ingest", best.ingest().json(), "replay", best.replay().json(), "attempt_reported", best.attempt(),
                    "attempts", attempts, "stopped_s", round2(stopSeconds));
            return new Round(count, best.ingest().durablePerSecond(), best.ingest().inListPerSecond(), best.replay().perSecond(), json);
        }
    }

    /** One measurement of a count: its ingest and replay phases, and how busy other processes kept the machine during them. */
    private record Attempt(int attempt, Ingested ingest, Replayed replay, double disturbance) {
    }

    /** The storm of {@code attempt} ingested, then its replays; each phase after the machine went quiet. */
    private static Attempt attempt(InstanceCluster cluster, Optional<ProcessHandle> databaseServer, KafkaBroker broker, RoundTopics topics,
                                   int attempt, List<RecordMetadata> sources, Sizes sizes, BearerTokens tokens) throws Exception {
        int count = cluster.size();
        String group = topics.prefix() + count + "-consumer-" + attempt;
        double othersBeforeIngest = ClusterCpu.awaitQuietMachine(cluster.instances, databaseServer, QUIET_CORES, QUIET_WAIT);
        Ingested ingest = ingest(cluster, databaseServer, broker, topics.storm(attempt), topics.prefix() + "orig-" + attempt + "-" + count,
                sources, group, sizes.records());
        double ingestQuiet = cluster.awaitQuiet(Duration.ofMinutes(5));
        ingest.json().put("every_processor_at_the_head_s_after", round2(ingestQuiet));
        ingest.json().put("other_processes_cores_before", othersBeforeIngest);
        System.out.printf(Locale.ROOT, "instances %d, attempt %d: ingest %s%n", count, attempt, ingest.json());
        double othersBeforeReplay = ClusterCpu.awaitQuietMachine(cluster.instances, databaseServer, QUIET_CORES, QUIET_WAIT);
        Replayed replay = replay(cluster, databaseServer, sources, group, tokens.authorization("OPERATOR"));
        replay.json().put("other_processes_cores_before", othersBeforeReplay);
        System.out.printf(Locale.ROOT, "instances %d, attempt %d: replay %s%n", count, attempt, replay.json());
        double disturbance = Math.max(others(ingest.json().get("cpu_until_in_the_list")), others(replay.json().get("cpu")));
        if (disturbance >= QUIET_CORES) {
            System.out.printf(Locale.ROOT, "instances %d, attempt %d: other processes used %.2f cores meanwhile%n", count, attempt, disturbance);
        }
        return new Attempt(attempt, ingest, replay, disturbance);
    }

    private static double others(Object cpu) {
        return ((Map<?, ?>) cpu).get("other_processes_cores") instanceof Number number ? number.doubleValue() : 0;
    }

    /**
     * {@code records} first failures to {@code dlqTopic}, one in {@code records / sources} of a real source record (replayable by
     * {@code group}); records/s from the first stored to the last durable, and to the last in the list.
     */
    private static Ingested ingest(InstanceCluster cluster, Optional<ProcessHandle> databaseServer, KafkaBroker broker, String dlqTopic,
                                String origin, List<RecordMetadata> sources, String group, int records) throws Exception {
        List<ProducerRecord<byte[], byte[]>> batch = new ArrayList<>(records);
        int every = records / sources.size();
        int first = 0;
        for (int i = 0; i < records; i++) {
            if (i % every == 0 && i / every < sources.size()) {
                int source = i / every;
                RecordMetadata metadata = sources.get(source); // labelled by its topic, as sent
                batch.add(ReplayBench.failure(metadata, metadata.topic(), source, group, dlqTopic, i % Records.PARTITIONS));
            } else {
                batch.add(IngestBench.firstFailure(origin, first++, dlqTopic, i % Records.PARTITIONS));
            }
        }
        long head = cluster.eventStoreHead();
        long listed = count(cluster, "SELECT COUNT(*) FROM incident_summary");
        DatabaseWork work = DatabaseWork.start(cluster.jdbc);
        ClusterCpu cpu = ClusterCpu.start(cluster.instances, databaseServer);
        try (KafkaProducer<byte[], byte[]> producer = Records.producer(broker)) {
            batch.forEach(producer::send);
            producer.flush();
        }
        long firstStored = until(() -> cluster.eventStoreHead() - head, 1, 5);
        long durable = until(() -> cluster.eventStoreHead() - head < records ? 0
                : count(cluster, "SELECT COUNT(*) FROM domain_event_entry WHERE global_index > " + head + " AND payload_type = '"
                + IncidentOpened.class.getName() + "'"), records, 50);
        Map<String, Object> durableCpu = cpu.per(records);
        long inList = until(() -> count(cluster, "SELECT COUNT(*) FROM incident_summary") - listed, records, 50);
        Map<String, Object> allCpu = cpu.per(records);
        double durablePerSecond = records / ((durable - firstStored) / 1e9);
        double inListPerSecond = records / ((inList - firstStored) / 1e9);
        return new Ingested(durablePerSecond, inListPerSecond, ordered("records", records, "durable_per_s", round0(durablePerSecond), "in_list_per_s",
                round0(inListPerSecond), "database_work_per_record", work.per(records), "cpu_until_durable", durableCpu,
                "cpu_until_in_the_list", allCpu));
    }

    /**
     * One replay of each source's incident, requested through the instances in turn with an operator's bearer token
     * ({@code authorization}); replays/s until all are PUBLISHED.
     */
    private static Replayed replay(InstanceCluster cluster, Optional<ProcessHandle> databaseServer, List<RecordMetadata> sources, String group,
                                   String authorization) throws Exception {
        List<String> incidents = sources.stream()
                .map(source -> IncidentId.of(new FailureKey(source.topic(), source.partition(), source.offset(), group)).value()).toList();
        DatabaseWork work = DatabaseWork.start(cluster.jdbc);
        ClusterCpu cpu = ClusterCpu.start(cluster.instances, databaseServer);
        long started = System.nanoTime();
        ExecutorService threads = Executors.newFixedThreadPool(REQUEST_THREADS);
        try {
            List<Future<?>> requests = new ArrayList<>();
            for (int i = 0; i < incidents.size(); i++) {
                ServiceInstance instance = cluster.instances.get(i % cluster.size());
                String incident = incidents.get(i);
                requests.add(threads.submit(() -> requestReplay(instance, incident, authorization)));
            }
            for (Future<?> request : requests) {
                request.get(5, TimeUnit.MINUTES);
            }
        } finally {
            threads.shutdownNow();
        }
        long published = until(() -> count(cluster, "SELECT COUNT(*) FROM replay_attempt WHERE status = 'PUBLISHED' AND target_group = '"
                + group + "'"), incidents.size(), 50);
        double perSecond = incidents.size() / ((published - started) / 1e9);
        return new Replayed(perSecond, ordered("replays", incidents.size(), "published_per_s", round0(perSecond),
                "database_work_per_replay", work.per(incidents.size()), "cpu", cpu.per(incidents.size())));
    }

    /**
     * As an operator (its bearer token); a 503 (the database or broker slow to answer) or a 429 is tried again
     * for up to a minute, as clients should.
     */
    private static Void requestReplay(ServiceInstance instance, String incident, String authorization) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (true) {
            HttpResponse<String> response = instance.post("/api/v1/incidents/" + incident + "/replay", authorization, "{\"reason\":\"bench replay\"}");
            if (response.statusCode() == 202) {
                return null;
            }
            if (response.statusCode() != 503 && response.statusCode() != 429 || System.nanoTime() > deadline) {
                throw new IllegalStateException("replay of " + incident + " on " + instance.name() + ": " + response.statusCode() + " " + response.body());
            }
            Thread.sleep(200);
        }
    }

    private static long count(InstanceCluster cluster, String sql) {
        Long count = cluster.jdbc.queryForObject(sql, Long.class);
        return count == null ? 0 : count;
    }

    /** {@code System.nanoTime()} once the count reached {@code target}, polled every {@code pollMillis}; fails if it stalls. */
    private static long until(LongSupplier count, long target, long pollMillis) throws InterruptedException {
        long seen = -1;
        long lastChange = System.nanoTime();
        while (true) {
            long current = count.getAsLong();
            long now = System.nanoTime();
            if (current >= target) {
                return now;
            }
            if (current != seen) {
                seen = current;
                lastChange = now;
            } else if (now - lastChange > STALL.toNanos()) {
                throw new IllegalStateException("stuck at " + current + " of " + target + " for " + STALL);
            }
            Thread.sleep(pollMillis);
        }
    }

    /** Prints the table and the work per item; returns latest.json's {@code instances} value. */
    private static Map<String, Object> report(Sizes sizes, List<Round> rounds, Path jar, long started) {
        Round one = rounds.get(0);
        System.out.printf(Locale.ROOT, "%ninstances run, %d DLQ records and %d replays per count, %s%n", sizes.records(), sizes.replays(),
                BenchReport.machine());
        System.out.println("| instances | ingest until durable (records/s) | × of " + one.instances() + " | until in the list (records/s) | × "
                + "| replay until PUBLISHED (replays/s) | × |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- |");
        for (Round round : rounds) {
            System.out.printf(Locale.ROOT, "| %d | %s | %.2f× | %s | %.2f× | %s | %.2f× |%n", round.instances(), fmt(round.durablePerSecond()),
                    round.durablePerSecond() / one.durablePerSecond(), fmt(round.inListPerSecond()), round.inListPerSecond() / one.inListPerSecond(),
                    fmt(round.replaysPerSecond()), round.replaysPerSecond() / one.replaysPerSecond());
        }
        System.out.println();
        System.out.println("| instances | statements / commits per record | database CPU µs per record | cores until durable: instances, database,"
                + " broker and load, other processes | statements / commits per replay | cores while replaying: instances, database, broker and load,"
                + " other processes |");
        System.out.println("| --- | --- | --- | --- | --- | --- |");
        for (Round round : rounds) {
            Map<?, ?> ingest = (Map<?, ?>) round.json().get("ingest");
            Map<?, ?> replay = (Map<?, ?>) round.json().get("replay");
            Map<?, ?> ingestWork = (Map<?, ?>) ingest.get("database_work_per_record");
            Map<?, ?> replayWork = (Map<?, ?>) replay.get("database_work_per_replay");
            Map<?, ?> durableCpu = (Map<?, ?>) ingest.get("cpu_until_durable");
            Map<?, ?> listCpu = (Map<?, ?>) ingest.get("cpu_until_in_the_list");
            Map<?, ?> replayCpu = (Map<?, ?>) replay.get("cpu");
            System.out.printf(Locale.ROOT, "| %d | %s / %s | %s | %s | %s / %s | %s |%n", round.instances(), ingestWork.get("statements_per_item"),
                    ingestWork.get("commits_per_item"), listCpu.get("database_us_per_item"), cores(durableCpu),
                    replayWork.get("statements_per_item"), replayWork.get("commits_per_item"), cores(replayCpu));
        }
        Map<String, Object> byCount = new LinkedHashMap<>();
        for (Round round : rounds) {
            Map<String, Object> json = new LinkedHashMap<>(round.json());
            json.put("ingest_durable_x_of_one", round2(round.durablePerSecond() / one.durablePerSecond()));
            json.put("ingest_in_list_x_of_one", round2(round.inListPerSecond() / one.inListPerSecond()));
            json.put("replay_x_of_one", round2(round.replaysPerSecond() / one.replaysPerSecond()));
            byCount.put(String.valueOf(round.instances()), json);
        }
        return ordered("run", ordered("finished_at", Instant.now().toString(), "minutes", round2((System.nanoTime() - started) / 6e10),
                        "records_per_count", sizes.records(), "replays_per_count", sizes.replays(), "warm_up_records", sizes.records() / 5,
                        "warm_up_replays", sizes.replays() / 5, "replay_request_threads", REQUEST_THREADS, "instance_jvm", "-Xmx512m -XX:+UseSerialGC",
                        "jar", jar.toString(), "jar_commit", System.getProperty("bench.exec.jar.commit"), "machine", BenchReport.machine()),
                "by_instances", byCount);
    }

    private static String cores(Map<?, ?> cpu) {
        return cpu.get("instances_cores") + ", " + cpu.get("database_cores") + ", " + cpu.get("broker_and_load_cores") + ", "
                + cpu.get("other_processes_cores");
    }

    /** {@code instances} into latest.json, its other keys as they are; one line for this run appended to history.jsonl. */
    private static void write(Path results, Map<String, Object> instances, List<Round> rounds) throws IOException {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        Path latest = results.resolve("latest.json");
        @SuppressWarnings("unchecked")
        Map<String, Object> json = Files.exists(latest) ? mapper.readValue(latest.toFile(), LinkedHashMap.class) : new LinkedHashMap<>();
        json.put("instances", instances);
        Files.writeString(latest, mapper.writeValueAsString(json) + System.lineSeparator());
        System.out.println("written: " + latest + " (key instances; the other keys as they were)");

        Map<String, Object> line = new LinkedHashMap<>();
        line.put("run_utc", DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC).format(Instant.now()));
        line.put("kind", "instances");
        line.put("source", "bench/run.sh --instances, written by the bench (latest.json key instances)"
                + (System.getProperty("bench.exec.jar.commit") == null ? "" : "; the jar built from " + System.getProperty("bench.exec.jar.commit")));
        line.put("note", "the service's jar as 1, 2 and 3 JVMs on one embedded MariaDB and one in-process broker, fresh data per count; "
                + DEFAULT_RECORDS + " records and " + DEFAULT_REPLAYS + " replays per count after a warm-up, " + ATTEMPTS
                + " attempts per count, the least disturbed by other processes reported");
        line.put("instances_ingest_durable_per_s", perCount(rounds, Round::durablePerSecond));
        line.put("instances_ingest_in_list_per_s", perCount(rounds, Round::inListPerSecond));
        line.put("instances_replay_per_s", perCount(rounds, Round::replaysPerSecond));
        line.put("instances_statements_per_record", perCount(rounds, round -> work(round, "ingest", "database_work_per_record", "statements_per_item")));
        line.put("instances_commits_per_record", perCount(rounds, round -> work(round, "ingest", "database_work_per_record", "commits_per_item")));
        line.put("instances_database_cpu_per_record_us", perCount(rounds, round -> work(round, "ingest", "cpu_until_in_the_list", "database_us_per_item")));
        line.put("instances_database_cores_until_durable", perCount(rounds, round -> work(round, "ingest", "cpu_until_durable", "database_cores")));
        line.put("instances_other_processes_cores_until_durable", perCount(rounds,
                round -> work(round, "ingest", "cpu_until_durable", "other_processes_cores")));
        line.put("instances_statements_per_replay", perCount(rounds, round -> work(round, "replay", "database_work_per_replay", "statements_per_item")));
        Files.writeString(results.resolve("history.jsonl"), mapper.writer(new OneLine()).writeValueAsString(line) + "\n",
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        System.out.println("appended: " + results.resolve("history.jsonl"));
    }

    private static double work(Round round, String phase, String part, String key) {
        Object value = ((Map<?, ?>) ((Map<?, ?>) round.json().get(phase)).get(part)).get(key);
        return value instanceof Number number ? number.doubleValue() : Double.NaN;
    }

    private static Map<String, Object> perCount(List<Round> rounds, java.util.function.ToDoubleFunction<Round> value) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Round round : rounds) {
            double v = value.applyAsDouble(round);
            values.put(String.valueOf(round.instances()), Double.isNaN(v) ? null : v >= 100 ? round0(v) : round2(v));
        }
        return values;
    }

    /** One line, spaced as the rest of history.jsonl ({@code "key": value, …}). */
    private static final class OneLine extends MinimalPrettyPrinter {

        @Override
        public void writeObjectFieldValueSeparator(JsonGenerator generator) throws IOException {
            generator.writeRaw(": ");
        }

        @Override
        public void writeObjectEntrySeparator(JsonGenerator generator) throws IOException {
            generator.writeRaw(", ");
        }

        @Override
        public void writeArrayValueSeparator(JsonGenerator generator) throws IOException {
            generator.writeRaw(", ");
        }
    }
}
