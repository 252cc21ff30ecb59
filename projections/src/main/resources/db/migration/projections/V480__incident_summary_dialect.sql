-- Whose headers an incident's root failure was read by: SPRING, CONNECT, STREAMS or CUSTOM (docs/dlq-dialects.md).
-- Every incident stored before was read from Spring Kafka's headers, the only ones read then: no rebuild needed.
ALTER TABLE incident_summary
    ADD COLUMN dlq_dialect VARCHAR(16) NOT NULL DEFAULT 'SPRING';
