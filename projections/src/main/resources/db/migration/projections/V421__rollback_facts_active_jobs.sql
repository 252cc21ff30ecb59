-- Rollback-readiness facts (processor rollback-facts): the replay jobs with work left, RUNNING or PAUSED. A job leaves
-- the table when it is cancelled or completed.
CREATE TABLE replay_job_active (
    job_id VARCHAR(36) NOT NULL,
    status VARCHAR(16) NOT NULL,
    PRIMARY KEY (job_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
