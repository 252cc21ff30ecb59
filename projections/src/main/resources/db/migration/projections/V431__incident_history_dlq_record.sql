-- Each failure in the history (first, duplicate delivery, re-failure) keeps where its own DLQ record is, so the console
-- can read any failure's record again, a re-failure's stack trace too, not only the root failure's. Only events can
-- fill the new columns: the history and audit trail are rebuilt (their processor starts over).
DELETE FROM incident_history;
DELETE FROM token_entry WHERE processor_name = 'incident-history';
ALTER TABLE incident_history
    ADD COLUMN dlq_topic     VARCHAR(249),
    ADD COLUMN dlq_partition INT,
    ADD COLUMN dlq_offset    BIGINT;
