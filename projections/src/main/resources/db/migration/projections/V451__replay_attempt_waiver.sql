-- An admin's waiver of a decided replay's consumption (ReplayConsumptionWaived): the rollback check, which has no
-- horizon, stops waiting for that replay to be consumed and shows the waiver instead.
ALTER TABLE replay_attempt
    ADD COLUMN waived_by     VARCHAR(256),
    ADD COLUMN waived_reason VARCHAR(2000),
    ADD COLUMN waived_at     DATETIME(6);
