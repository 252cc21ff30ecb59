package io.dlqdesk.ingest.classify;

import io.dlqdesk.domain.record.DlqDialect;

/** How a DLQ topic's records are read: by one writer's headers, or {@code AUTO}, decided per record. */
public enum DialectSetting {
    /** By the writer whose headers come last in the record: each writer adds its own after the ones it copied. */
    AUTO(null),
    SPRING(DlqDialect.SPRING),
    CONNECT(DlqDialect.CONNECT),
    STREAMS(DlqDialect.STREAMS),
    /** By the headers named in the topic's {@link HeaderMapping}. */
    CUSTOM(DlqDialect.CUSTOM);

    private final DlqDialect dialect;

    DialectSetting(DlqDialect dialect) {
        this.dialect = dialect;
    }

    /** The dialect this setting fixes; null for {@code AUTO}. */
    public DlqDialect dialect() {
        return dialect;
    }
}
