package io.dlqdesk.bench;

import io.dlqdesk.projections.MultiRowInsert;
import org.springframework.jdbc.core.JdbcTemplate;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/** The read models as {@link ReadModelLatency} measures them: rows written straight into their tables, as the projections would. */
final class LoadedReadModels {

    private LoadedReadModels() {
    }

    /** "Now" of the loaded history; the as-of query asks about an instant before it. */
    static final Instant NOW = Instant.now();

    /**
     * 50 topics, 20 groups, 200 exception groups, statuses mostly closed, detected over 30 days; and for
     * the point-in-time read model, each incident OPEN from its detection and, unless still open, its
     * status from an hour later.
     */
    static void load(JdbcTemplate jdbc, int incidents) {
        Random random = new Random(42);
        String[] statuses = {"OPEN", "ACKED", "RESOLVED", "RESOLVED", "RESOLVED", "DISCARDED"};
        Instant now = NOW;
        List<Object> batch = new ArrayList<>();
        int rows = 0;
        for (int i = 0; i < incidents; i++) {
            int exceptionGroup = random.nextInt(200);
            rows++;
            batch.addAll(List.of(String.format(Locale.ROOT, "inc-%032x", i), "orders-" + random.nextInt(50), random.nextInt(12), (long) i,
                    "group-" + random.nextInt(20), statuses[random.nextInt(statuses.length)],
                    Timestamp.from(now.minusSeconds(random.nextInt(30 * 24 * 3600))), "com.example.Failure" + exceptionGroup,
                    group(exceptionGroup), "failure " + exceptionGroup + " for order <n>", 1 + random.nextInt(3), random.nextInt(3),
                    eventId(i), keySha256(i), "orders.dlq", 0, (long) i));
            if (rows == 1_000 || i == incidents - 1) { // one multi-row INSERT per 1,000 rows
                jdbc.update("INSERT INTO incident_summary (incident_id, topic, partition_no, record_offset, consumer_group, status, "
                        + "detected_at, exception_class, exception_group, exception_fingerprint, failure_count, attempt_count, "
                        + "event_id, key_sha256, dlq_topic, dlq_partition, dlq_offset) VALUES "
                        + String.join(", ", java.util.Collections.nCopies(rows, "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")),
                        batch.toArray());
                batch.clear();
                rows = 0;
            }
        }
        // the counts the projection keeps alongside
        for (String[] dimension : new String[][] {{"TOPIC", "topic"}, {"CONSUMER_GROUP", "consumer_group"}, {"STATUS", "status"},
                {"EXCEPTION_GROUP", "exception_group"}, {"LOCATION", "CONCAT(topic, CHAR(10), consumer_group)"}}) {
            jdbc.update("INSERT INTO incident_count (dimension, value, status, incidents) SELECT '" + dimension[0] + "', " + dimension[1]
                    + ", status, COUNT(*) FROM incident_summary GROUP BY " + dimension[1] + ", status");
        }
        jdbc.update("INSERT INTO incident_status_interval (incident_id, seq, status, valid_from, valid_to, topic, partition_no, record_offset,"
                + " consumer_group) SELECT incident_id, 0, 'OPEN', " + nanos("detected_at") + ", IF(status = 'OPEN', " + Long.MAX_VALUE + ", "
                + nanos("detected_at") + " + 3600000000000), topic, partition_no, record_offset, consumer_group FROM incident_summary");
        jdbc.update("INSERT INTO incident_status_interval (incident_id, seq, status, valid_from, valid_to, topic, partition_no, record_offset,"
                + " consumer_group) SELECT incident_id, 1, status, " + nanos("detected_at") + " + 3600000000000, " + Long.MAX_VALUE
                + ", topic, partition_no, record_offset, consumer_group FROM incident_summary WHERE status <> 'OPEN'");
        jdbc.update("INSERT INTO exception_group (exception_group, exception_class, fingerprint) "
                + "SELECT exception_group, MIN(exception_class), MIN(exception_fingerprint) FROM incident_summary GROUP BY exception_group");
    }

    /**
     * More history for the point-in-time read model only: {@code count} incidents detected 30 to 300 days
     * before "now" (all before the asked instant), each OPEN for an hour and RESOLVED since.
     */
    static void loadOlderHistory(JdbcTemplate jdbc, int firstNumber, int count) {
        Random random = new Random(7);
        long now = NOW.getEpochSecond() * 1_000_000_000L;
        long day = 24 * 3600 * 1_000_000_000L;
        long hour = 3600 * 1_000_000_000L;
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = String.format(Locale.ROOT, "inc-%032x", firstNumber + i);
            long detected = now - 30 * day - (long) (random.nextDouble() * 270 * day);
            String topic = "orders-" + random.nextInt(50);
            int partition = random.nextInt(12);
            String group = "group-" + random.nextInt(20);
            rows.add(new Object[] {id, 0, "OPEN", detected, detected + hour, topic, partition, (long) firstNumber + i, group});
            rows.add(new Object[] {id, 1, "RESOLVED", detected + hour, Long.MAX_VALUE, topic, partition, (long) firstNumber + i, group});
        }
        new MultiRowInsert("incident_status_interval", "incident_id, seq, status, valid_from, valid_to, topic, partition_no, record_offset,"
                + " consumer_group", "seq = seq").write(jdbc, rows);
    }

    /** SQL for a DATETIME column (UTC) as epoch nanoseconds. */
    private static String nanos(String column) {
        return "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', " + column + ") * 1000)";
    }

    static String eventId(int number) {
        return "evt-" + number;
    }

    /** The key of incident {@code number} is {@code order-<number>}: its SHA-256, as the read model keeps it. */
    static String keySha256(int number) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(("order-" + number).getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String group(int number) {
        return String.format(Locale.ROOT, "%016x", number);
    }
}
