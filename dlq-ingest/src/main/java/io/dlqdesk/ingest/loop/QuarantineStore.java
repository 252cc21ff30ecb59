package io.dlqdesk.ingest.loop;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.domain.record.BoundedText;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.springframework.jdbc.core.JdbcTemplate;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The durable quarantine table: a malformed DLQ record is kept whole, then its offset may be committed. */
public class QuarantineStore {

    public static final int MAX_REASON = 1000;

    private final JdbcTemplate jdbc;
    private final ObjectMapper json;
    private final Clock clock;

    public QuarantineStore(JdbcTemplate jdbc, ObjectMapper json, Clock clock) {
        this.jdbc = jdbc;
        this.json = json;
        this.clock = clock;
    }

    /** Idempotent per DLQ location: a redelivered record is stored once. */
    public void quarantine(ConsumerRecord<byte[], byte[]> record, String reason) {
        String boundedReason = BoundedText.truncate(reason, MAX_REASON);
        String headers = headersJson(record);
        // the sizes are kept beside the bytes, so a list of records reads neither
        jdbc.update("INSERT INTO dlq_quarantine (dlq_topic, dlq_partition, dlq_offset, record_timestamp, reason,"
                        + " headers_json, record_key, record_value, quarantined_at, headers_bytes, key_bytes, value_bytes)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE id = id",
                record.topic(), record.partition(), record.offset(), record.timestamp(), boundedReason,
                headers, record.key(), record.value(), LocalDateTime.ofInstant(clock.instant(), ZoneOffset.UTC),
                (long) headers.getBytes(StandardCharsets.UTF_8).length, record.key() == null ? null : record.key().length,
                record.value() == null ? null : record.value().length);
    }

    /** Headers in order, repeats kept, values base64 (they are bytes, not text). */
    private String headersJson(ConsumerRecord<byte[], byte[]> record) {
        List<Map<String, String>> headers = new ArrayList<>();
        for (Header header : record.headers()) {
            Map<String, String> entry = new LinkedHashMap<>();
            entry.put("key", header.key());
            entry.put("value", header.value() == null ? null : Base64.getEncoder().encodeToString(header.value()));
            headers.add(entry);
        }
        try {
            return json.writeValueAsString(headers);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write headers as JSON", e);
        }
    }
}
