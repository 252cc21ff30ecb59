-- The runner's reads of its work list, several a second, each take an index instead of walking a job's rows or the table:
-- a job's next pending incidents (not the answered ones before them), its attempts in flight, and what the jobs have not
-- been told yet (report_due, kept by the database itself from the columns it sums up). ended_at: when a job was cancelled or
-- completed, so that its rows can be deleted once everything of it is decided and reported.
ALTER TABLE replay_job_item
    ADD COLUMN report_due BOOLEAN AS (attempt IS NOT NULL AND (answer IS NULL
        OR (answer = 'REQUESTED' AND publish_status IS NOT NULL AND NOT result_recorded)
        OR (answer = 'REQUESTED' AND refailed AND NOT refailure_recorded))) STORED,
    ADD KEY ix_replay_job_item_pending (job_id, answer, attempt, seq),
    ADD KEY ix_replay_job_item_in_flight (job_id, publish_status, attempt),
    ADD KEY ix_replay_job_item_report_due (report_due, job_id, seq);

ALTER TABLE replay_job_run
    ADD COLUMN ended_at DATETIME(6),
    ADD KEY ix_replay_job_run_ended (status, ended_at);
