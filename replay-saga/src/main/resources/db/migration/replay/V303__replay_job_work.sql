-- The replay-job runner's work list, written by its processor (replay-job-runner, one segment) from the jobs'
-- events and their attempts' results: each job's manifest in order and how far each incident got. The runner reads
-- it to choose what to claim next and what to report back to the job; the job aggregate decides.
CREATE TABLE replay_job_run (
    job_id          VARCHAR(36)   NOT NULL,
    status          VARCHAR(16)   NOT NULL,
    rate_per_second INT           NOT NULL,
    max_in_flight   INT           NOT NULL,
    -- who created the job and why: each incident's replay is requested in their name
    principal       VARCHAR(256)  NOT NULL,
    reason          VARCHAR(2000) NOT NULL,
    PRIMARY KEY (job_id),
    KEY ix_replay_job_run_status (status)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE replay_job_item (
    job_id             VARCHAR(36)  NOT NULL,
    seq                INT          NOT NULL,
    incident_id        VARCHAR(36)  NOT NULL,
    claimed            BOOLEAN      NOT NULL DEFAULT FALSE,
    -- REQUESTED or REFUSED once the answer is recorded on the job
    answer             VARCHAR(16),
    -- the job's attempt: from the incident's ReplayRequested (its metadata names the job) or the job's record of it
    attempt            INT,
    -- how that attempt was decided (PUBLISHED, PUBLISH_FAILED, PUBLISH_UNKNOWN), from the incident
    publish_status     VARCHAR(16),
    result_recorded    BOOLEAN      NOT NULL DEFAULT FALSE,
    refailed           BOOLEAN      NOT NULL DEFAULT FALSE,
    refailure_recorded BOOLEAN      NOT NULL DEFAULT FALSE,
    PRIMARY KEY (job_id, seq),
    UNIQUE KEY uk_replay_job_item_incident (job_id, incident_id),
    KEY ix_replay_job_item_attempt (incident_id, attempt)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
