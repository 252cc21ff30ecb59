-- What the list and detail show besides the location: the exception group, how many failures and
-- attempts, and the latest attempt's publish status.
ALTER TABLE incident_summary
    ADD COLUMN exception_class       VARCHAR(512) NOT NULL DEFAULT '(unknown)',
    ADD COLUMN exception_group       VARCHAR(16)  NOT NULL DEFAULT '',
    ADD COLUMN exception_fingerprint VARCHAR(500) NOT NULL DEFAULT '',
    ADD COLUMN failure_count         INT          NOT NULL DEFAULT 1,
    ADD COLUMN attempt_count         INT          NOT NULL DEFAULT 0,
    ADD COLUMN last_publish_status   VARCHAR(16),
    ADD KEY ix_incident_summary_group_status (exception_group, status),
    ADD KEY ix_incident_summary_consumer_group_status (consumer_group, status),
    ADD KEY ix_incident_summary_status (status);

-- Every change of an incident, in order: failures, replay attempts and their results, operator
-- actions with who, why and when (the audit trail). One row per event: (incident, sequence).
CREATE TABLE incident_history (
    incident_id  VARCHAR(36)   NOT NULL,
    seq          BIGINT        NOT NULL,
    event_type   VARCHAR(64)   NOT NULL,
    occurred_at  DATETIME(6)   NOT NULL,
    principal    VARCHAR(256),
    reason       VARCHAR(2000),
    attempt      INT,
    publish_status VARCHAR(16),
    detail       VARCHAR(4000),
    PRIMARY KEY (incident_id, seq),
    KEY ix_incident_history_time (occurred_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- The summary gained columns it can only fill from events: rebuild it (its processor starts over).
DELETE FROM incident_summary;
DELETE FROM token_entry WHERE processor_name = 'incident-summary';
