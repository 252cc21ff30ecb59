-- A FAILED row records the end offset (high-water mark) of its target partition when it was decided:
-- a try that timed out may still have landed below it, and the rollback check requires the target
-- group to reach it. NULL: it could not be read (the check fails closed), or the row predates this.
ALTER TABLE replay_outbox ADD COLUMN end_offset_at_decision BIGINT;
