-- Rollback-readiness facts: every replay attempt with its target group, its publish status, where it
-- was published and when it was decided (the rollback checker reads these, not the event store).
CREATE TABLE replay_attempt (
    incident_id         VARCHAR(36)  NOT NULL,
    attempt             INT          NOT NULL,
    target_group        VARCHAR(255) NOT NULL,
    status              VARCHAR(16)  NOT NULL,
    requested_at        DATETIME(6)  NOT NULL,
    published_topic     VARCHAR(249),
    published_partition INT,
    published_offset    BIGINT,
    decided_at          DATETIME(6),
    PRIMARY KEY (incident_id, attempt),
    KEY ix_replay_attempt_status (status),
    KEY ix_replay_attempt_decided (decided_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
