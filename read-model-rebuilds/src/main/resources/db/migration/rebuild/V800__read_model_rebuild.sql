-- Bulk rebuilds of the read models: who asked, how far each got, how it ended. The row is the rebuild's lease too: the
-- instance that runs it refreshes heartbeat_at, and a row in a running phase whose heartbeat stopped was interrupted.
-- swap_token is the processor's position the rebuilt tables reflect, stored with the phase SWAPPING in the transaction
-- that sets the processor's tokens: a restart between that and the RENAME finishes the swap from it. running_slot is 1
-- while a rebuild runs and NULL once it ended: its unique key lets one rebuild run at a time, whichever instance asks.
CREATE TABLE read_model_rebuild (
    rebuild_id       VARCHAR(36)   NOT NULL,
    processor        VARCHAR(255)  NOT NULL,
    phase            VARCHAR(16)   NOT NULL,
    requested_by     VARCHAR(256)  NOT NULL,
    reason           VARCHAR(2000) NOT NULL,
    requested_at     DATETIME(6)   NOT NULL,
    phase_at         DATETIME(6)   NOT NULL,
    heartbeat_at     DATETIME(6)   NOT NULL,
    ended_at         DATETIME(6),
    owner            VARCHAR(255)  NOT NULL,
    events_read      BIGINT        NOT NULL DEFAULT 0,
    events_estimated BIGINT        NOT NULL DEFAULT 0,
    rows_written     BIGINT        NOT NULL DEFAULT 0,
    parked_events    INT           NOT NULL DEFAULT 0,
    cancelled_by     VARCHAR(256),
    failure          VARCHAR(2000),
    swap_token       BLOB,
    running_slot     TINYINT,
    PRIMARY KEY (rebuild_id),
    UNIQUE KEY ux_read_model_rebuild_running (running_slot),
    KEY ix_read_model_rebuild_requested (requested_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
