-- projections own V400-V499
CREATE TABLE incident_summary (
    incident_id    VARCHAR(36)  NOT NULL,
    topic          VARCHAR(249) NOT NULL,
    partition_no   INT          NOT NULL,
    record_offset  BIGINT       NOT NULL,
    consumer_group VARCHAR(255) NOT NULL,
    status         VARCHAR(16)  NOT NULL,
    detected_at    DATETIME(6)  NOT NULL,
    PRIMARY KEY (incident_id),
    KEY ix_incident_summary_topic_status (topic, status)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
