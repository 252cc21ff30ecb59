package io.dlqdesk.app;

import io.dlqdesk.parked.ProcessorStalls.StoredSegment;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.SimpleSerializedObject;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.List;

/** The event store's head and every processor segment's stored token: what the lag gauges and the stall check both judge. */
final class TokenPositions {

    private final JdbcTemplate jdbc;
    private final Serializer serializer;

    /** @param jdbc with the query timeout its caller needs */
    TokenPositions(JdbcTemplate jdbc, Serializer serializer) {
        this.jdbc = jdbc;
        this.serializer = serializer;
    }

    /** The newest stored event's global index; -1 when the store is empty. */
    long eventStoreHead() {
        Long head = jdbc.queryForObject("SELECT COALESCE(MAX(global_index), -1) FROM domain_event_entry", Long.class);
        return head == null ? -1 : head;
    }

    List<StoredSegment> read() {
        return jdbc.query("SELECT processor_name, segment, owner, token, token_type FROM token_entry WHERE processor_name NOT LIKE '\\_\\_%'",
                (row, n) -> new StoredSegment(row.getString("processor_name"), row.getInt("segment"),
                        position(row.getBytes("token"), row.getString("token_type")), row.getString("owner") != null));
    }

    /** A segment without a token has processed nothing: position 0, below the first global index. */
    private long position(byte[] token, String type) {
        if (token == null || type == null) {
            return 0;
        }
        TrackingToken tracking = serializer.deserialize(new SimpleSerializedObject<>(token, byte[].class, type, null));
        return tracking == null ? 0 : tracking.position().orElse(0);
    }
}
