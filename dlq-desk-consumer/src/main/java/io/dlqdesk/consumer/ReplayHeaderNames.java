package io.dlqdesk.consumer;

/**
 * The headers the DLQ Incident Desk adds to every record it replays to the original topic. Each
 * value is a UTF-8 string; the rest of the record (key, value, timestamp, other headers) is the
 * original, byte for byte. Consumers in any language can read them under these names:
 * <ul>
 *   <li>{@value #TARGET_GROUP}: the consumer group that failed the record and that the replay is for;</li>
 *   <li>{@value #OWNER}: the name of the desk that replayed it ({@code dlqdesk.ledger-name});</li>
 *   <li>{@value #ROOT_INCIDENT_ID}: the incident id;</li>
 *   <li>{@value #ATTEMPT}: the replay attempt, a decimal number;</li>
 *   <li>{@value #SIGNATURE}: {@code v1:<key id>:<HMAC-SHA256, base64url without padding>} over the four above and
 *       the record's identity (see {@link ReplayKeys}); absent when the desk has no signing key.</li>
 * </ul>
 * Anyone who can produce to the topic can write the first four: only the signature makes them the desk's.
 * The desk's own copy of these names lives in its domain; a test there keeps the two equal.
 */
public final class ReplayHeaderNames {

    public static final String TARGET_GROUP = "dlq-incident-target-group";
    public static final String OWNER = "dlq-incident-owner";
    public static final String ROOT_INCIDENT_ID = "dlq-incident-root";
    public static final String ATTEMPT = "dlq-incident-attempt";
    public static final String SIGNATURE = "dlq-incident-signature";

    private ReplayHeaderNames() {
    }
}
