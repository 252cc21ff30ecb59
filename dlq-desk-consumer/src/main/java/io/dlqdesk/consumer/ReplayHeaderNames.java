package io.dlqdesk.consumer;

/**
 * The headers the DLQ Incident Desk adds to every record it replays to the original topic. Each
 * value is a UTF-8 string; the rest of the record (key, value, timestamp, other headers) is the
 * original, byte for byte. Consumers in any language can read them under these names:
 * <ul>
 *   <li>{@value #TARGET_GROUP}: the consumer group that failed the record and that the replay is for;</li>
 *   <li>{@value #OWNER}: the name of the desk that replayed it ({@code dlqdesk.ledger-name});</li>
 *   <li>{@value #ROOT_INCIDENT_ID}: the incident id;</li>
 *   <li>{@value #ATTEMPT}: the replay attempt, a decimal number.</li>
 * </ul>
 * The desk's own copy of these names lives in its domain; a test there keeps the two equal.
 */
public final class ReplayHeaderNames {

    public static final String TARGET_GROUP = "dlq-incident-target-group";
    public static final String OWNER = "dlq-incident-owner";
    public static final String ROOT_INCIDENT_ID = "dlq-incident-root";
    public static final String ATTEMPT = "dlq-incident-attempt";

    private ReplayHeaderNames() {
    }
}
