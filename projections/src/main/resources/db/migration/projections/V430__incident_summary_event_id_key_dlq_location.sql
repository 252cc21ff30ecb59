-- The incident list is searched by the root failure's eventId and record key (the key by the SHA-256 of its
-- bytes: any key is one fixed-width value), and keeps where the root failure's DLQ record is, which the console
-- reads the record itself from. The new columns can only be filled from events: rebuild the summary and its counts.
DELETE FROM incident_summary;
DELETE FROM incident_count;
DELETE FROM exception_group;
DELETE FROM token_entry WHERE processor_name = 'incident-summary';
ALTER TABLE incident_summary
    ADD COLUMN event_id      VARCHAR(256),
    ADD COLUMN key_sha256    VARCHAR(64) CHARACTER SET ascii,
    ADD COLUMN dlq_topic     VARCHAR(249) NOT NULL,
    ADD COLUMN dlq_partition INT          NOT NULL,
    ADD COLUMN dlq_offset    BIGINT       NOT NULL,
    ADD KEY ix_incident_summary_event_id (event_id),
    ADD KEY ix_incident_summary_key_sha256 (key_sha256);
