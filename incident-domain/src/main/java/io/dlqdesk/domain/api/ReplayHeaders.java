package io.dlqdesk.domain.api;

/**
 * The four correlation headers a replayed record carries and its re-failure brings back, exactly
 * as decoded (UTF-8) from the DLQ record, each null when absent. Deliberately unvalidated: they are
 * untrusted input, and a malformed value must fail a correlation check, never throw and lose the
 * record.
 */
public record ReplayHeaders(String rootIncidentId, String attempt, String owner, String targetGroup) {

    public static final String ROOT_INCIDENT_ID = "dlq-incident-root";
    public static final String ATTEMPT = "dlq-incident-attempt";
    public static final String OWNER = "dlq-incident-owner";
    public static final String TARGET_GROUP = "dlq-incident-target-group";
}
