-- A job may wait AWAITING_APPROVAL (17 characters) before the runner asks anything of it.
ALTER TABLE replay_job_run
    MODIFY status VARCHAR(24) NOT NULL;
