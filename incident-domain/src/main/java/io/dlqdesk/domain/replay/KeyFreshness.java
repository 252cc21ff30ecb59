package io.dlqdesk.domain.replay;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.record.BoundedText;

import java.util.Objects;

/**
 * Whether a newer record with the incident's key was already processed by its target group: the group's committed offset
 * on the source partition lies past a later record with the same key. Replaying the old record then writes stale data over
 * newer state, so the replay is refused {@link ReplayRefusal#STALE_KEY} unless the operator overrides it. Read from the
 * broker before the request (a side effect, so outside the aggregate); only for the topics configured to be checked.
 *
 * @param state       what the check found
 * @param newerOffset the offset of the newer record with the same key (STALE only)
 * @param detail      what was read, or why the check could not answer (bounded, for the operator)
 */
public record KeyFreshness(State state, Long newerOffset, String detail) {

    /** The longest detail kept. */
    public static final int MAX_DETAIL = 500;

    public enum State {
        /** The topic is not configured to be checked, or the record has no key. */
        NOT_CHECKED,
        /** The group has processed no later record with the key. */
        FRESH,
        /** The group has processed a later record with the key, at {@code newerOffset}. */
        STALE,
        /** The check could not answer within its bounds: refused as if stale ({@link ReplayRefusal#KEY_FRESHNESS_UNKNOWN}). */
        UNKNOWN
    }

    public KeyFreshness {
        Objects.requireNonNull(state, "state");
        if ((state == State.STALE) != (newerOffset != null) || newerOffset != null && newerOffset < 0) {
            throw new InvalidValueException("a newer offset (>= 0) is named exactly when the key is STALE");
        }
        detail = detail == null ? null : BoundedText.truncate(detail, MAX_DETAIL);
    }

    public static KeyFreshness notChecked(String why) {
        return new KeyFreshness(State.NOT_CHECKED, null, why);
    }

    public static KeyFreshness fresh(String detail) {
        return new KeyFreshness(State.FRESH, null, detail);
    }

    public static KeyFreshness stale(long newerOffset, String detail) {
        return new KeyFreshness(State.STALE, newerOffset, detail);
    }

    public static KeyFreshness unknown(String why) {
        return new KeyFreshness(State.UNKNOWN, null, why);
    }
}
