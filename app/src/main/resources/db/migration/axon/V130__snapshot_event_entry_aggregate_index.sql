-- Axon reads an aggregate's latest snapshot (WHERE aggregate_identifier = ? ORDER BY sequence_number DESC) before every load
-- of a replay job, and deletes the older ones (aggregate_identifier = ? AND sequence_number < ?) after storing one. V100's
-- primary key starts with sequence_number, so both scanned the whole table.
CREATE INDEX ix_snapshot_event_entry_aggregate ON snapshot_event_entry (aggregate_identifier, sequence_number);
