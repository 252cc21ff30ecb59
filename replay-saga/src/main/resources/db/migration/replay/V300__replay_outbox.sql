-- replay-saga owns V300-V399.
-- One row per replay attempt (replay id = incident id + '/' + attempt), written by ReplaySaga and
-- published by the outbox poller. Times are UTC from the database clock, never the JVM's.
CREATE TABLE replay_outbox (
    replay_id           VARCHAR(64)   NOT NULL,
    incident_id         VARCHAR(36)   NOT NULL,
    attempt             INT           NOT NULL,
    source_topic        VARCHAR(249)  NOT NULL,
    source_partition    INT           NOT NULL,
    source_offset       BIGINT        NOT NULL,
    -- what the record at the source location must still be (the key is null when it had none)
    record_key          LONGBLOB,
    value_hash          CHAR(64)      NOT NULL,
    target_group        VARCHAR(255)  NOT NULL,
    owner               VARCHAR(255)  NOT NULL,
    -- PENDING until decided; SENT (the broker acknowledged) or FAILED (after the last try)
    status              VARCHAR(16)   NOT NULL,
    tries               INT           NOT NULL,
    next_try_at         DATETIME(6)   NOT NULL,
    last_error          VARCHAR(2000),
    published_partition INT,
    published_offset    BIGINT,
    decided_at          DATETIME(6),
    created_at          DATETIME(6)   NOT NULL,
    PRIMARY KEY (replay_id),
    KEY ix_replay_outbox_due (status, next_try_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- The runtime replay switch: every change, newest last; the newest row is the current state and
-- no row means off. Read on every request and every poll, so a change reaches every instance.
CREATE TABLE replay_switch_change (
    id          BIGINT        NOT NULL AUTO_INCREMENT,
    enabled     BOOLEAN       NOT NULL,
    changed_by  VARCHAR(256)  NOT NULL,
    reason      VARCHAR(2000) NOT NULL,
    changed_at  DATETIME(6)   NOT NULL,
    PRIMARY KEY (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
