package io.dlqdesk.rebuild;

/** Where a bulk rebuild is. Until {@link #SWAPPING} the live tables are untouched; the last three are ends. */
public enum RebuildPhase {
    /** Shadow tables created like the live ones, their secondary indexes dropped. */
    PREPARING,
    /** One scan of the event store, folded into the shadow tables chunk by chunk. */
    LOADING,
    /** The secondary indexes added back, one statement per table. */
    INDEXING,
    /** The events stored meanwhile folded in, until few are left. */
    CATCHING_UP,
    /** The processor paused, the last events folded in, its tokens set and the tables renamed in one statement. */
    SWAPPING,
    COMPLETED,
    CANCELLED,
    FAILED;

    public boolean ended() {
        return this == COMPLETED || this == CANCELLED || this == FAILED;
    }
}
