-- dlq-ingest owns V200-V299.
-- DLQ records that can never become an incident. Kept whole (headers, key, value) so nothing is
-- lost; one row per DLQ location, so a redelivered record is not stored twice.
CREATE TABLE dlq_quarantine (
    id               BIGINT       NOT NULL AUTO_INCREMENT,
    dlq_topic        VARCHAR(249) NOT NULL,
    dlq_partition    INT          NOT NULL,
    dlq_offset       BIGINT       NOT NULL,
    record_timestamp BIGINT       NOT NULL,
    reason           VARCHAR(1000) NOT NULL,
    headers_json     LONGTEXT     NOT NULL,
    record_key       LONGBLOB,
    record_value     LONGBLOB,
    quarantined_at   DATETIME(6)  NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT uk_dlq_quarantine_location UNIQUE (dlq_topic, dlq_partition, dlq_offset),
    KEY ix_dlq_quarantine_time (quarantined_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
