package io.dlqdesk.consumer;

/**
 * What {@link TargetGroupFilter} decided for one record, and why. Only {@link #SKIP_OTHER_GROUP}
 * skips; every other answer keeps the record. The names are stable: they are the {@code decision}
 * tag of the {@code dlq.consumer.replays.kept} counter.
 */
public enum Decision {

    /** A replay for another group, signed with a held key and, where owners are configured, from a trusted one. */
    SKIP_OTHER_GROUP,
    /** Not a group-scoped replay: no target-group header, or one without a value. Not counted. */
    KEEP_NO_TARGET_GROUP,
    /** A replay for this consumer's own group, signed or not: keeping a record is always safe. */
    KEEP_OWN_GROUP,
    /** The target-group header is not UTF-8 or is blank, so whom it is for is unknown. */
    KEEP_UNREADABLE_TARGET_GROUP,
    /** For another group, but without a signature header: a desk without a key, or anyone who can produce to the topic. */
    KEEP_UNSIGNED,
    /** For another group, signed under a key id this consumer does not hold (or it holds none). */
    KEEP_UNKNOWN_KEY,
    /** For another group, with a malformed signature or one that does not match this record and its headers. */
    KEEP_BAD_SIGNATURE,
    /** For another group, but the key or value is of a type whose bytes the filter cannot get, so it cannot verify. */
    KEEP_UNVERIFIABLE_RECORD,
    /** For another group and signed, but its owner names no trusted desk. */
    KEEP_UNTRUSTED_OWNER;

    public boolean skip() {
        return this == SKIP_OTHER_GROUP;
    }
}
