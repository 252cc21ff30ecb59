package io.dlqdesk.projections.readiness;

import java.time.Instant;
import java.util.Objects;

/**
 * The facts a rollback decision needs, from the read model: attempts still REQUESTED, the latest
 * publish decision, and the highest published offset per target group and partition among replays
 * decided at or after {@code publishedSince}. Answered with {@link RollbackFacts}.
 */
public record RollbackFactsQuery(Instant publishedSince) {

    public RollbackFactsQuery {
        Objects.requireNonNull(publishedSince, "publishedSince");
    }
}
