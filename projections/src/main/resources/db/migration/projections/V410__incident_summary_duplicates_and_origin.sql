-- What ingest now keeps for every DLQ record: redeliveries of a failure counted on its incident, and
-- for a separate incident why it is not the failure it claims (mismatches, or an unknown original
-- location when it is keyed by its DLQ record).
ALTER TABLE incident_summary
    ADD COLUMN duplicate_deliveries    INT          NOT NULL DEFAULT 0,
    ADD COLUMN last_duplicate_at       DATETIME(6),
    ADD COLUMN correlation_mismatches  VARCHAR(512),
    ADD COLUMN location_unknown_reason VARCHAR(500);

-- the new columns can only be filled from events: rebuild the summary and the counts it keeps
DELETE FROM incident_summary;
DELETE FROM incident_count;
DELETE FROM exception_group;
DELETE FROM token_entry WHERE processor_name = 'incident-summary';
