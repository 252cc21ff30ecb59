package io.dlqdesk.domain.record;

import io.dlqdesk.domain.InvalidValueException;
import java.util.Objects;

/**
 * What one DLQ record says about a failure, decoded by ingest. {@code eventId},
 * {@code originalTimestamp}, {@code valueHash} (null for a tombstone) and {@code exception} are
 * null when the record did not carry them: such a failure still opens an incident, it just cannot
 * be replayed. {@code dlqLocation} is where the DLQ record itself was read.
 * <p>
 * {@code locationUnknownReason} is null when the DLQ record named the original location. When it
 * did not (a header missing or undecodable, the failing group known), the failure is keyed by the
 * DLQ record's own location instead, so the group still sees it, and this says why; such a failure
 * is never replayed ({@code LOCATION_UNKNOWN}).
 * <p>
 * {@code dialect} names whose headers the facts were read from. Failures stored before there were dialects carry none
 * and are {@link DlqDialect#SPRING}: Spring's headers were the only ones read then.
 */
public record FailedRecord(
        FailureKey failureKey,
        RecordLocation dlqLocation,
        RecordKey key,
        EventId eventId,
        OriginalTimestamp originalTimestamp,
        PayloadHash valueHash,
        ExceptionSummary exception,
        String locationUnknownReason,
        DlqDialect dialect) {

    public static final int MAX_REASON_LENGTH = 500;

    public FailedRecord {
        dialect = dialect == null ? DlqDialect.SPRING : dialect;
        Objects.requireNonNull(failureKey, "failureKey");
        Objects.requireNonNull(dlqLocation, "dlqLocation");
        Objects.requireNonNull(key, "key (RecordKey.NONE when the record had none)");
        if (locationUnknownReason != null) {
            if (locationUnknownReason.isBlank() || locationUnknownReason.length() > MAX_REASON_LENGTH) {
                throw new InvalidValueException("locationUnknownReason must be 1.." + MAX_REASON_LENGTH + " non-blank characters");
            }
            if (!failureKey.location().equals(dlqLocation)) {
                throw new InvalidValueException("a failure whose original location is unknown is keyed by its DLQ location " + dlqLocation);
            }
        }
    }

    /** A failure whose original record the DLQ record did name, read from Spring's headers. */
    public FailedRecord(FailureKey failureKey, RecordLocation dlqLocation, RecordKey key, EventId eventId,
                        OriginalTimestamp originalTimestamp, PayloadHash valueHash, ExceptionSummary exception) {
        this(failureKey, dlqLocation, key, eventId, originalTimestamp, valueHash, exception, null, DlqDialect.SPRING);
    }

    /** As read from Spring's headers. */
    public FailedRecord(FailureKey failureKey, RecordLocation dlqLocation, RecordKey key, EventId eventId,
                        OriginalTimestamp originalTimestamp, PayloadHash valueHash, ExceptionSummary exception, String locationUnknownReason) {
        this(failureKey, dlqLocation, key, eventId, originalTimestamp, valueHash, exception, locationUnknownReason, DlqDialect.SPRING);
    }

    /** A failure of {@code consumerGroup} whose original location is unknown: keyed by the DLQ record's own location. */
    public static FailedRecord withUnknownLocation(String consumerGroup, RecordLocation dlqLocation, RecordKey key, EventId eventId,
                                                   OriginalTimestamp originalTimestamp, PayloadHash valueHash,
                                                   ExceptionSummary exception, String reason) {
        return new FailedRecord(FailureKey.of(dlqLocation, consumerGroup), dlqLocation, key, eventId, originalTimestamp, valueHash,
                exception, reason);
    }

    /** The same facts, read from {@code dialect}'s headers. */
    public FailedRecord readBy(DlqDialect dialect) {
        return new FailedRecord(failureKey, dlqLocation, key, eventId, originalTimestamp, valueHash, exception, locationUnknownReason,
                Objects.requireNonNull(dialect, "dialect"));
    }

    /** Whether the DLQ record named the original record's location (not a record component: not serialized). */
    public boolean originalLocationKnown() {
        return locationUnknownReason == null;
    }
}
