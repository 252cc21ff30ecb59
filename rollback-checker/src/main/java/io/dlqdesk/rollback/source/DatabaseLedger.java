package io.dlqdesk.rollback.source;

import io.dlqdesk.projections.readiness.ReplayAttemptProjection;
import io.dlqdesk.projections.readiness.RollbackFacts;
import io.dlqdesk.projections.readiness.RollbackFactsReader;
import io.dlqdesk.replay.outbox.ReplayOutbox;
import io.dlqdesk.rollback.check.ReplayLedger;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.SimpleSerializedObject;
import org.axonframework.serialization.json.JacksonSerializer;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import javax.sql.DataSource;

/**
 * The database side of the check: the outbox (through its owner), the rollback-facts read model
 * (through its owner) and how far that read model has read Axon's event store, from Axon's token
 * table. Reads only: it never claims a token, so a running service keeps its processors.
 */
public final class DatabaseLedger implements ReplayLedger {

    /** Tokens are stored by Axon's general serializer, Jackson in this service (axon.serializer.general). */
    private static final Serializer TOKENS = JacksonSerializer.defaultSerializer();

    private final JdbcTemplate jdbc;
    private final ReplayOutbox outbox;
    private final RollbackFactsReader facts;

    public DatabaseLedger(DataSource dataSource, Duration queryTimeout) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.jdbc.setQueryTimeout(Math.toIntExact(Math.max(1, queryTimeout.toSeconds())));
        this.outbox = new ReplayOutbox(jdbc);
        this.facts = new RollbackFactsReader(jdbc);
    }

    @Override
    public long pendingOutboxRows() {
        return outbox.pendingCount();
    }

    @Override
    public long eventStoreHead() {
        Long head = jdbc.queryForObject("SELECT MAX(global_index) FROM domain_event_entry", Long.class);
        return head == null ? -1 : head;
    }

    @Override
    public OptionalLong readModelPosition() {
        List<Long> positions = jdbc.query("SELECT token, token_type FROM token_entry WHERE processor_name = ?",
                (row, number) -> position(row.getBytes("token"), row.getString("token_type")), ReplayAttemptProjection.PROCESSING_GROUP);
        return positions.stream().mapToLong(Long::longValue).min();
    }

    @Override
    public RollbackFacts facts(Instant publishedSince) {
        return facts.read(publishedSince);
    }

    private static long position(byte[] token, String type) {
        if (token == null || type == null) {
            return -1; // a segment that has not processed any event yet
        }
        TrackingToken tracking = TOKENS.deserialize(new SimpleSerializedObject<>(token, byte[].class, type, null));
        return tracking == null ? -1 : tracking.position().orElse(-1);
    }
}
