package io.dlqdesk.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.springframework.jdbc.core.JdbcTemplate;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * N instances of the service's jar sharing one fresh database and one broker, as in production: started, awaited until
 * the work is spread (every instance ready, the ingest group with N members each holding some of the DLQ topic's
 * partitions, N rows in {@code service_instance}, every processor's segments claimed by as many instances as it has
 * segments or instances), awaited quiet between phases, stopped with SIGTERM.
 */
final class InstanceCluster implements AutoCloseable {

    private static final Pattern TOKEN_INDEX = Pattern.compile("\"(?:index|globalIndex)\"\\s*:\\s*(\\d+)");

    final List<ServiceInstance> instances = new ArrayList<>();
    final JdbcTemplate jdbc;
    final String ingestGroup;
    private final HikariDataSource dataSource;
    private final KafkaBroker broker;

    private InstanceCluster(TestDatabase database, KafkaBroker broker, String ingestGroup) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.jdbcUrl());
        config.setUsername(database.username());
        config.setPassword(database.password());
        config.setMaximumPoolSize(2);
        config.setPoolName("bench-instances");
        this.dataSource = new HikariDataSource(config);
        this.jdbc = new JdbcTemplate(dataSource);
        this.broker = broker;
        this.ingestGroup = ingestGroup;
    }

    /**
     * Starts {@code count} instances: the first alone (it creates the schema), then the others together; waits until each is
     * ready. {@code properties}: every instance's, as command-line arguments.
     */
    static InstanceCluster start(int count, Path jar, Path logs, TestDatabase database, KafkaBroker broker, String ingestGroup,
                                 Map<String, Object> properties) throws Exception {
        InstanceCluster cluster = new InstanceCluster(database, broker, ingestGroup);
        try {
            for (int i = 1; i <= count; i++) {
                cluster.instances.add(ServiceInstance.start(jar, logs, "instances-" + count + "-" + i, properties));
                if (i == 1) {
                    cluster.instances.get(0).awaitReady(Duration.ofMinutes(4));
                }
            }
            for (ServiceInstance instance : cluster.instances) {
                instance.awaitReady(Duration.ofMinutes(4));
            }
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    int size() {
        return instances.size();
    }

    /**
     * Waits until the work is spread over every instance: the ingest group has N members, each assigned partitions of
     * {@code dlqTopic}; {@code service_instance} has N rows; every processor's segments are all claimed, by min(N, segments)
     * instances. Returns what it saw.
     */
    Map<String, Object> awaitSpread(String dlqTopic, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            Map<String, Object> spread = spread(dlqTopic);
            last = spread.toString();
            if (Boolean.TRUE.equals(spread.get("spread"))) {
                return spread;
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException(size() + " instances not spread within " + timeout + ": " + last);
    }

    private Map<String, Object> spread(String dlqTopic) throws Exception {
        int n = size();
        Integer rows = jdbc.queryForObject("SELECT COUNT(*) FROM service_instance", Integer.class);
        List<Integer> partitionsPerMember = new ArrayList<>();
        try (Admin admin = broker.admin()) {
            ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(ingestGroup)).all().get(10, TimeUnit.SECONDS).get(ingestGroup);
            for (MemberDescription member : group.members()) {
                partitionsPerMember.add((int) member.assignment().topicPartitions().stream().filter(tp -> tp.topic().equals(dlqTopic)).count());
            }
        }
        Map<String, String> segments = new LinkedHashMap<>();
        boolean segmentsSpread = true;
        for (Map<String, Object> processor : jdbc.queryForList("SELECT processor_name, COUNT(*) AS segments, COUNT(DISTINCT owner) AS owners,"
                + " SUM(owner IS NULL) AS unclaimed FROM token_entry GROUP BY processor_name ORDER BY processor_name")) {
            int total = ((Number) processor.get("segments")).intValue();
            int owners = ((Number) processor.get("owners")).intValue();
            int unclaimed = ((Number) processor.get("unclaimed")).intValue();
            segments.put((String) processor.get("processor_name"), total + " segments, " + owners + " instances");
            segmentsSpread &= unclaimed == 0 && owners == Math.min(n, total);
        }
        boolean spread = Objects.equals(rows, n) && partitionsPerMember.size() == n && partitionsPerMember.stream().allMatch(p -> p > 0)
                && !segments.isEmpty() && segmentsSpread;
        Map<String, Object> seen = new LinkedHashMap<>();
        seen.put("spread", spread);
        seen.put("service_instance_rows", rows);
        seen.put("dlq_partitions_per_group_member", partitionsPerMember);
        seen.put("processors", segments);
        return seen;
    }

    long eventStoreHead() {
        Long head = jdbc.queryForObject("SELECT MAX(global_index) FROM domain_event_entry", Long.class);
        return head == null ? -1 : head;
    }

    /**
     * Waits until every processor's stored tokens have reached the event store's head, so a phase does not pay for the one
     * before (the Kafka publisher trails a storm). A segment that had nothing to handle may keep an older token: when neither
     * the head nor any token moved for 10 s, that is quiet too. Returns the seconds waited.
     */
    double awaitQuiet(Duration timeout) throws InterruptedException {
        long started = System.nanoTime();
        long deadline = started + timeout.toNanos();
        String seen = "";
        long seenSince = started;
        while (true) {
            long head = eventStoreHead();
            Map<String, Long> tokens = tokenIndexes();
            if (tokens.values().stream().allMatch(index -> index >= head)) {
                return (System.nanoTime() - started) / 1e9;
            }
            long now = System.nanoTime();
            String state = head + " " + tokens;
            if (!state.equals(seen)) {
                seen = state;
                seenSince = now;
            } else if (now - seenSince > TimeUnit.SECONDS.toNanos(10)) {
                System.out.println("instances: nothing moved for 10 s; tokens behind the head " + head + " taken as idle segments: " + tokens);
                return (seenSince - started) / 1e9;
            }
            if (now > deadline) {
                throw new IllegalStateException("processors not at the head " + head + " within " + timeout + ": " + tokens);
            }
            Thread.sleep(200);
        }
    }

    /** Each segment's stored position (processor/segment to the global index it has handled), -1 for no token yet. */
    private Map<String, Long> tokenIndexes() {
        Map<String, Long> indexes = new HashMap<>();
        jdbc.query("SELECT processor_name, segment, token FROM token_entry", row -> {
            byte[] token = row.getBytes(3);
            Matcher index = token == null ? null : TOKEN_INDEX.matcher(new String(token, StandardCharsets.UTF_8));
            indexes.put(row.getString(1) + "/" + row.getInt(2), index != null && index.find() ? Long.parseLong(index.group(1)) : -1L);
        });
        return indexes;
    }

    /** SIGTERM to every instance at once, then waits for each to exit; returns the seconds it took. */
    double stop() throws InterruptedException {
        long started = System.nanoTime();
        List<Thread> stopping = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (ServiceInstance instance : instances) {
            Thread thread = new Thread(() -> {
                try {
                    instance.stop();
                } catch (InterruptedException | RuntimeException e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, "bench-stop-" + instance.name());
            thread.start();
            stopping.add(thread);
        }
        for (Thread thread : stopping) {
            thread.join();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("instances did not stop cleanly: " + failures);
        }
        return (System.nanoTime() - started) / 1e9;
    }

    @Override
    public void close() {
        for (ServiceInstance instance : instances) {
            try {
                instance.close();
            } catch (InterruptedException | RuntimeException e) {
                System.out.printf(Locale.ROOT, "instances: %s did not stop: %s%n", instance.name(), e);
            }
        }
        dataSource.close();
    }
}
