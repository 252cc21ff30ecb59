-- A row is never published after its incident's replay deadline (consumers may no longer
-- deduplicate then): the deadline is checked again, with the database clock, when the row is claimed.
ALTER TABLE replay_outbox ADD COLUMN replay_deadline DATETIME(6);
-- status ABANDONED: a placeholder written when an admin confirmed the row absent and marked the
-- attempt PUBLISH_UNKNOWN; a saga that writes the row later finds it taken, so nothing is published.
