package io.dlqdesk.retention;

/** What can make a source topic unsafe for replay. */
public enum RetentionFlag {
    /** Effective retention.ms is shorter than the replay window: records can be gone before their deadline. */
    RETENTION_SHORTER_THAN_REPLAY_WINDOW,
    /** retention.bytes is set but segment.bytes is not smaller: size retention only acts on closed segments. */
    SIZE_RETENTION_INEFFECTIVE,
    /** message.timestamp.type=LogAppendTime overwrites the original timestamps replay relies on. */
    LOG_APPEND_TIME,
    /** cleanup.policy includes compact: an offset can be replaced by a later record of the same key. */
    COMPACTED,
    /** The topic does not exist or its configuration could not be read. */
    UNREADABLE
}
