-- The open-incident gauges read incidents per (topic, consumer group, status) from incident_count, kept by the
-- incident-summary projection under dimension LOCATION (value: topic, a newline, group; a topic name has no
-- newline), instead of grouping every unresolved incident at each refresh: a scan that grew with the storm.
-- The oldest unresolved incident is read from (status, detected_at), which also serves what (status) did.
ALTER TABLE incident_count MODIFY value VARCHAR(512) NOT NULL;
INSERT INTO incident_count (dimension, value, status, incidents)
SELECT 'LOCATION', CONCAT(topic, CHAR(10), consumer_group), status, COUNT(*) FROM incident_summary GROUP BY topic, consumer_group, status;
ALTER TABLE incident_summary
    DROP KEY ix_incident_summary_status,
    ADD KEY ix_incident_summary_status_detected (status, detected_at);
