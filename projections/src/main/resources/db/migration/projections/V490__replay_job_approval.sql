-- Four-eyes for replay jobs: a job may wait AWAITING_APPROVAL (17 characters) until a second person approves it, who and
-- why kept with the job.
ALTER TABLE replay_job
    MODIFY status VARCHAR(24) NOT NULL,
    ADD COLUMN approved_by     VARCHAR(256),
    ADD COLUMN approval_reason VARCHAR(2000),
    ADD COLUMN approved_at     DATETIME(6);

ALTER TABLE replay_job_active
    MODIFY status VARCHAR(24) NOT NULL;
