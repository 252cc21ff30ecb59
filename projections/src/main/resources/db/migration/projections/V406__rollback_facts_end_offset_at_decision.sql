-- PUBLISH_FAILED and PUBLISH_UNKNOWN attempts may have gone out too: keep the partition their replay
-- targets (the original one) and its end offset when they were decided (NULL: not read, or decided
-- before it was recorded; the rollback check then fails closed). Rebuild the read model.
ALTER TABLE replay_attempt
    ADD COLUMN target_topic VARCHAR(249),
    ADD COLUMN target_partition INT,
    ADD COLUMN end_offset_at_decision BIGINT;
DELETE FROM replay_attempt;
DELETE FROM token_entry WHERE processor_name = 'rollback-facts';
