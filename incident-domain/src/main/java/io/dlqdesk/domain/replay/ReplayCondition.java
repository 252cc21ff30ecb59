package io.dlqdesk.domain.replay;

import io.dlqdesk.domain.incident.IncidentStatus;

import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * The replay conditions, each a named rule with the stable code it reports when it does not hold.
 * All are evaluated, so a refusal lists every reason at once. Numbers refer to ARCHITECTURE §4.
 * Checks on the record read back hold vacuously when nothing came back (SOURCE_RECORD_FOUND
 * already refuses that: one cause, one reason), but fail when the recorded value they compare
 * with is unknown: nothing to compare with is not a match.
 */
public enum ReplayCondition {

    /* 1 */ EVENT_ID_KNOWN(ReplayRefusal.EVENT_ID_UNKNOWN, f -> f.eventId() != null),
    /* 2 */ FAILED_GROUP_KNOWN(ReplayRefusal.FAILED_GROUP_UNKNOWN, f -> f.failedGroup() != null && !f.failedGroup().isBlank()),
    /* 3 */ LOCATION_KNOWN(ReplayRefusal.LOCATION_UNKNOWN, f -> f.originalLocation() != null),
    /* 4 */ LOCATION_VALID(ReplayRefusal.LOCATION_INVALID, f -> f.source().locationInRange()),
    /* 5 */ TOPIC_ALLOWED(ReplayRefusal.TOPIC_NOT_ALLOWED, f -> f.policy().topicAllowed()),
    /* 6 */ ORIGINAL_TIMESTAMP_KNOWN(ReplayRefusal.ORIGINAL_TIMESTAMP_UNKNOWN, f -> f.originalTimestamp() != null),
    // fail closed: without a deadline there is no window in which consumers still deduplicate
    /* 7 */ BEFORE_DEADLINE(ReplayRefusal.AFTER_DEADLINE, f -> f.replayDeadline() != null && f.now().isBefore(f.replayDeadline())),
    /* 8 */ SOURCE_RECORD_FOUND(ReplayRefusal.SOURCE_RECORD_NOT_FOUND, f -> f.source().found()),
    /* 8 */ SOURCE_READ_AT_RECORDED_LOCATION(ReplayRefusal.SOURCE_LOCATION_MISMATCH, f -> f.source().readAt().equals(f.originalLocation())),
    // compaction returns the next record when the requested offset is gone
    /* 8 */ SAME_OFFSET(ReplayRefusal.SOURCE_OFFSET_MISMATCH, f -> !f.source().found() || f.source().returnedOffset() == f.source().readAt().offset()),
    /* 8 */ SAME_KEY(ReplayRefusal.SOURCE_KEY_MISMATCH, f -> !f.source().found() || f.source().key().equals(f.key())),
    /* 8 */ SAME_EVENT_ID(ReplayRefusal.SOURCE_EVENT_ID_MISMATCH, f -> !f.source().found() || f.source().eventId() != null && f.source().eventId().equals(f.eventId())),
    /* 8 */ NOT_TOMBSTONE(ReplayRefusal.SOURCE_TOMBSTONE, f -> !f.source().tombstone()),
    /* 8 */ SAME_VALUE_HASH(ReplayRefusal.SOURCE_VALUE_HASH_MISMATCH, f -> !f.source().found() || f.source().tombstone() || f.source().valueHash().equals(f.valueHash())),
    // the record's own time decides the window, not a header anyone who can write to the DLQ topic could have set; the
    // instant, not the type header, which writers name differently or leave out for the same record
    /* 8 */ SAME_TIMESTAMP(ReplayRefusal.SOURCE_TIMESTAMP_MISMATCH, f -> !f.source().found() || f.originalTimestamp() != null
            && f.source().timestamp() != null && f.originalTimestamp().instant().equals(f.source().timestamp().instant())),
    WITHIN_SOURCE_RETENTION(ReplayRefusal.SOURCE_RETENTION_PASSED, f -> f.source().retentionEnd() == null
            || f.now().isBefore(f.source().retentionEnd())),
    NOT_CLOSED(ReplayRefusal.INCIDENT_CLOSED, f -> f.status() != IncidentStatus.RESOLVED && f.status() != IncidentStatus.DISCARDED),
    // at most one replay in flight per incident: a second concurrent request loses
    NO_ATTEMPT_REQUESTED(ReplayRefusal.REPLAY_ALREADY_REQUESTED, f -> !f.attemptRequested()),
    // published and not re-failed since: nothing says the consumer failed again
    CLAIMED_NOT_PUBLISHED(ReplayRefusal.ALREADY_PUBLISHED, f -> f.claimedStatus() != PublishStatus.PUBLISHED),
    // it may have gone out; replaying it again could publish twice unknowingly
    CLAIMED_OUTCOME_KNOWN(ReplayRefusal.PUBLISH_UNKNOWN, f -> f.claimedStatus() != PublishStatus.PUBLISH_UNKNOWN),
    SWITCH_ON(ReplayRefusal.REPLAY_SWITCH_OFF, ReplayFacts::switchOn),
    // stops endless replay loops of a record that keeps failing
    UNDER_MAX_ATTEMPTS(ReplayRefusal.MAX_ATTEMPTS_REACHED, f -> f.attemptsSoFar() < f.policy().maxAttempts()),
    // old data over newer state is how a replay corrupts a downstream store; the operator may know better, and says why
    KEY_NOT_STALE(ReplayRefusal.STALE_KEY, f -> f.keyFreshness().state() != KeyFreshness.State.STALE || f.staleKeyOverridden()),
    // a check that could not answer is no "fresh"
    KEY_FRESHNESS_KNOWN(ReplayRefusal.KEY_FRESHNESS_UNKNOWN, f -> f.keyFreshness().state() != KeyFreshness.State.UNKNOWN
            || f.staleKeyOverridden()),
    EDIT_KNOWN(ReplayRefusal.EDIT_UNKNOWN, f -> f.edit() != ReplayFacts.RequestedEdit.UNKNOWN),
    // an edited record goes out only with a second person's approval
    EDIT_APPROVED(ReplayRefusal.EDIT_NOT_APPROVED, f -> f.edit() != ReplayFacts.RequestedEdit.NOT_APPROVED);

    private final ReplayRefusal refusal;
    private final Predicate<ReplayFacts> rule;

    ReplayCondition(ReplayRefusal refusal, Predicate<ReplayFacts> rule) {
        this.refusal = refusal;
        this.rule = rule;
    }

    /** The code reported when this condition does not hold. */
    public ReplayRefusal refusal() {
        return refusal;
    }

    public boolean holdsFor(ReplayFacts facts) {
        return rule.test(facts);
    }

    /** Every condition that does not hold, in declaration order; empty means replay may go ahead. */
    public static List<ReplayRefusal> failedFor(ReplayFacts facts) {
        return Arrays.stream(values()).filter(condition -> !condition.holdsFor(facts)).map(ReplayCondition::refusal).toList();
    }
}
