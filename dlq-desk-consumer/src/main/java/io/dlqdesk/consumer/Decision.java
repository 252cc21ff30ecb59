package io.dlqdesk.consumer;

/**
 * What {@link TargetGroupFilter} decided for one record, and why. Only {@link #SKIP_OTHER_GROUP}
 * skips; every other answer keeps the record.
 */
public enum Decision {

    /** A replay for another group, from a trusted owner (or any owner when none are configured). */
    SKIP_OTHER_GROUP,
    /** Not a group-scoped replay: no target-group header, or one without a value. */
    KEEP_NO_TARGET_GROUP,
    /** A replay for this consumer's own group. */
    KEEP_OWN_GROUP,
    /** The target-group header is not UTF-8 or is blank, so whom it is for is unknown. */
    KEEP_UNREADABLE_TARGET_GROUP,
    /** A replay for another group, but its owner header is missing or names no trusted desk. */
    KEEP_UNTRUSTED_OWNER;

    public boolean skip() {
        return this == SKIP_OTHER_GROUP;
    }
}
