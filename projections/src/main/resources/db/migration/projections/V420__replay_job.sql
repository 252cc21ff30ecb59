-- Replay jobs as operators see them (processor replay-jobs): the selection, the limits, the state and the counts.
CREATE TABLE replay_job (
    job_id             VARCHAR(36)   NOT NULL,
    selection          VARCHAR(2000) NOT NULL,
    status             VARCHAR(16)   NOT NULL,
    -- why it is PAUSED (OPERATOR, CANARY, REFAILURE_RATE); null otherwise
    pause_reason       VARCHAR(16),
    created_by         VARCHAR(256)  NOT NULL,
    reason             VARCHAR(2000) NOT NULL,
    created_at         DATETIME(6)   NOT NULL,
    -- when the job last started running (created or resumed): the ETA counts from here
    running_since      DATETIME(6),
    updated_at         DATETIME(6)   NOT NULL,
    rate_per_second    INT           NOT NULL,
    max_in_flight      INT           NOT NULL,
    canary             INT,
    max_refailure_rate DOUBLE,
    selected           INT           NOT NULL,
    requested          INT           NOT NULL DEFAULT 0,
    refused            INT           NOT NULL DEFAULT 0,
    published          INT           NOT NULL DEFAULT 0,
    publish_failed     INT           NOT NULL DEFAULT 0,
    publish_unknown    INT           NOT NULL DEFAULT 0,
    refailed           INT           NOT NULL DEFAULT 0,
    PRIMARY KEY (job_id),
    KEY ix_replay_job_created (created_at),
    KEY ix_replay_job_status (status)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Refused incidents per refusal code (an incident refused for two conditions counts under both).
CREATE TABLE replay_job_refusal (
    job_id    VARCHAR(36) NOT NULL,
    refusal   VARCHAR(64) NOT NULL,
    incidents INT         NOT NULL,
    PRIMARY KEY (job_id, refusal)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
