package io.dlqdesk.domain.replay;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.record.FailureKey;

/**
 * The four correlation headers a replayed record carries and its re-failure brings back, exactly
 * as decoded (UTF-8) from the DLQ record, each null when absent. Their content is not judged here:
 * a malformed value must fail a correlation check, never throw and lose the record. Only their size
 * and characters are bounded, so that every event and read model can hold them: ingest quarantines
 * a record whose value breaks the bound before it gets here.
 */
public record ReplayHeaders(String rootIncidentId, String attempt, String owner, String targetGroup) {

    /** As wide as a consumer group, the widest value the desk writes into these headers. */
    public static final int MAX_VALUE_LENGTH = FailureKey.MAX_GROUP_LENGTH;

    public ReplayHeaders {
        requireBounded(ROOT_INCIDENT_ID, rootIncidentId);
        requireBounded(ATTEMPT, attempt);
        requireBounded(OWNER, owner);
        requireBounded(TARGET_GROUP, targetGroup);
    }

    /** Why this header value cannot be kept, or null when it can (absent, or within the bound). */
    public static String problem(String value) {
        if (value == null) {
            return null;
        }
        if (value.length() > MAX_VALUE_LENGTH) {
            return value.length() + " characters, longer than " + MAX_VALUE_LENGTH;
        }
        return value.chars().anyMatch(Character::isISOControl) ? "contains control characters" : null;
    }

    private static void requireBounded(String header, String value) {
        String problem = problem(value);
        if (problem != null) {
            throw new InvalidValueException(header + ": " + problem);
        }
    }

    public static final String ROOT_INCIDENT_ID = "dlq-incident-root";
    public static final String ATTEMPT = "dlq-incident-attempt";
    public static final String OWNER = "dlq-incident-owner";
    public static final String TARGET_GROUP = "dlq-incident-target-group";
    /**
     * The desk's HMAC over the four headers above and the record they travel on (replay-saga's ReplaySigner);
     * consumers read it, the desk never does, so it is not one of the components here.
     */
    public static final String SIGNATURE = "dlq-incident-signature";
}
