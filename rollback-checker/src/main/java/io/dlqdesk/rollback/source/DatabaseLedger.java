package io.dlqdesk.rollback.source;

import io.dlqdesk.parked.ParkedEventCount;
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
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;

/**
 * The database side of the check: the outbox (through its owner), the rollback-facts read model
 * (through its owner) and how far that read model has read Axon's event store, from Axon's token
 * table. Reads only: it never claims a token, so a running service keeps its processors.
 */
public final class DatabaseLedger implements ReplayLedger {

    /** Tokens are stored by Axon's general serializer, Jackson in this service (axon.serializer.general); another one makes every check UNKNOWN. */
    private static final Serializer TOKENS = JacksonSerializer.defaultSerializer();

    private final JdbcTemplate jdbc;
    private final ReplayOutbox outbox;
    private final RollbackFactsReader facts;
    private final ParkedEventCount parked;

    public DatabaseLedger(DataSource dataSource, Duration queryTimeout) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.jdbc.setQueryTimeout(Math.toIntExact(Math.max(1, queryTimeout.toSeconds())));
        this.outbox = new ReplayOutbox(jdbc);
        this.facts = new RollbackFactsReader(jdbc);
        this.parked = new ParkedEventCount(jdbc);
    }

    @Override
    public long parkedRollbackFacts() {
        return parked.in(ReplayAttemptProjection.PROCESSING_GROUP);
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
        List<TrackingToken> tokens = jdbc.query("SELECT token, token_type FROM token_entry WHERE processor_name = ?",
                (row, number) -> token(row.getBytes("token"), row.getString("token_type")), ReplayAttemptProjection.PROCESSING_GROUP);
        if (tokens.isEmpty()) {
            return OptionalLong.empty();
        }
        Set<Long> gaps = new TreeSet<>();
        tokens.forEach(token -> gaps.addAll(TokenProgress.gaps(token)));
        Set<Long> committed = committedAmong(gaps);
        return OptionalLong.of(tokens.stream().mapToLong(token -> TokenProgress.processedUpTo(token, committed::contains)).min().orElse(-1));
    }

    /** Which of these event indexes exist now. */
    private Set<Long> committedAmong(Set<Long> indexes) {
        Set<Long> committed = new HashSet<>();
        List<Long> all = List.copyOf(indexes);
        for (int from = 0; from < all.size(); from += 500) {
            List<Long> chunk = all.subList(from, Math.min(all.size(), from + 500));
            committed.addAll(jdbc.queryForList("SELECT global_index FROM domain_event_entry WHERE global_index IN ("
                    + String.join(",", Collections.nCopies(chunk.size(), "?")) + ")", Long.class, chunk.toArray()));
        }
        return committed;
    }

    @Override
    public RollbackFacts facts() {
        return facts.read();
    }

    private static TrackingToken token(byte[] token, String type) {
        if (token == null || type == null) {
            return null; // a segment that has not processed any event yet
        }
        return TOKENS.deserialize(new SimpleSerializedObject<>(token, byte[].class, type, null));
    }
}
