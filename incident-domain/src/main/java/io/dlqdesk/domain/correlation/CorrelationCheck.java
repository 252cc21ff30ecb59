package io.dlqdesk.domain.correlation;

import io.dlqdesk.domain.record.TimestampType;

import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * The nine checks a re-failure must pass to join the incident its headers name. Headers are
 * untrusted: a missing or malformed one fails its check, never throws. A value that is missing on
 * either side fails too (nothing to compare is not a match). Pure: ingest and the aggregate ask
 * the same question.
 */
public enum CorrelationCheck {

    /* 1 */ ATTEMPT(CorrelationMismatch.ATTEMPT_MISMATCH, f -> f.namedAttempt().isPresent()),
    /* 2 */ OWNER(CorrelationMismatch.OWNER_MISMATCH, f -> f.ledgerName().equals(f.headers().owner())),
    /* 3 */ TARGET_GROUP(CorrelationMismatch.TARGET_GROUP_MISMATCH, f -> {
        String failingGroup = f.failure().failureKey().consumerGroup();
        return failingGroup.equals(f.headers().targetGroup())
                && f.namedAttempt().map(attempt -> failingGroup.equals(attempt.targetGroup())).orElse(false);
    }),
    // ids are canonical lower-case hex, so string equality is the strict parse
    /* 4 */ ROOT_INCIDENT(CorrelationMismatch.ROOT_INCIDENT_MISMATCH, f -> f.recorded().incidentId().value().equals(f.headers().rootIncidentId())),
    /* 5 */ TOPIC(CorrelationMismatch.TOPIC_MISMATCH, f -> f.failure().failureKey().topic().equals(f.recorded().topic())),
    /* 6 */ EVENT_ID(CorrelationMismatch.EVENT_ID_MISMATCH, f -> f.failure().eventId() != null && f.failure().eventId().equals(f.recorded().eventId())),
    /* 7 */ KEY(CorrelationMismatch.KEY_MISMATCH, f -> f.failure().key().equals(f.recorded().key())),
    /* 8 */ ORIGINAL_TIMESTAMP(CorrelationMismatch.ORIGINAL_TIMESTAMP_MISMATCH,
            f -> logAppendTimeOnBothSides(f)
                    || f.failure().originalTimestamp() != null && f.failure().originalTimestamp().equals(f.recorded().originalTimestamp())),
    // same eventId and key with a different body must not merge into (or reopen) this incident
    /* 9 */ VALUE_HASH(CorrelationMismatch.VALUE_HASH_MISMATCH, f -> f.failure().valueHash() != null
            && f.namedAttempt().map(attempt -> f.failure().valueHash().equals(attempt.valueHash())).orElse(false));

    private final CorrelationMismatch mismatch;
    private final Predicate<CorrelationFacts> rule;

    CorrelationCheck(CorrelationMismatch mismatch, Predicate<CorrelationFacts> rule) {
        this.mismatch = mismatch;
        this.rule = rule;
    }

    /** The code reported when this check fails. */
    public CorrelationMismatch mismatch() {
        return mismatch;
    }

    public boolean passes(CorrelationFacts facts) {
        return rule.test(facts);
    }

    /** Why check 8 is left out of a re-failure of a topic that stamps LogAppendTime. */
    public static final String LOG_APPEND_TIME_SKIP = "the topic stamps records with LogAppendTime: the broker gave the replay a new"
            + " time, so the re-failure cannot carry the original one; the other eight checks decide";

    /**
     * The record and its re-failure were both stamped LogAppendTime (Spring's DLT header says so for each): the replay got
     * a new time from the broker, so the times cannot match and check 8 is skipped, never failed and never passed silently.
     */
    static boolean logAppendTimeOnBothSides(CorrelationFacts f) {
        return f.failure().originalTimestamp() != null && f.recorded().originalTimestamp() != null
                && f.failure().originalTimestamp().type() == TimestampType.LOG_APPEND_TIME
                && f.recorded().originalTimestamp().type() == TimestampType.LOG_APPEND_TIME;
    }

    /** The checks these facts leave out, each with why (recorded on the correlated re-failure). */
    public static List<SkippedCheck> skipped(CorrelationFacts facts) {
        return logAppendTimeOnBothSides(facts)
                ? List.of(new SkippedCheck(CorrelationMismatch.ORIGINAL_TIMESTAMP_MISMATCH, LOG_APPEND_TIME_SKIP)) : List.of();
    }

    /** Every failed check, in order; empty means the re-failure belongs to the recorded incident. */
    public static List<CorrelationMismatch> mismatches(CorrelationFacts facts) {
        return Arrays.stream(values()).filter(check -> !check.passes(facts)).map(CorrelationCheck::mismatch).toList();
    }
}
