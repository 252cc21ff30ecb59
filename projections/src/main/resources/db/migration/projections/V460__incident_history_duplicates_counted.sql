-- The duplicate deliveries of an incident are one history row that counts them, instead of a row each: a producer that
-- sends the same DLQ record a million times made a million rows, and every history page read them all. The row sits at
-- the first duplicate's place and says the last one's DLQ record; last_seq is the last event it counts, so an event
-- handled again counts nothing (every other row has last_seq = seq). collapsed is 1 on the row that collapses (NULL on
-- every other row, which a unique key lets repeat): a number, as it holds nothing from outside.
ALTER TABLE incident_history
    ADD COLUMN deliveries   INT         NOT NULL DEFAULT 1,
    ADD COLUMN last_seq     BIGINT      NOT NULL DEFAULT 0,
    ADD COLUMN collapsed    TINYINT,
    ADD CONSTRAINT uk_incident_history_collapsed UNIQUE (incident_id, collapsed);
UPDATE incident_history SET last_seq = seq;

-- The rows already there collapse as the projection would have written them. The groups are chosen into a table of
-- their own first: MySQL does not let an UPDATE or DELETE read its target table in a subquery. (Dropped first: on MySQL
-- a failed migration does not roll back its DDL, so a second try may find it.)
DROP TABLE IF EXISTS v460_duplicates;
CREATE TABLE v460_duplicates (
    incident_id VARCHAR(36) NOT NULL PRIMARY KEY,
    first_seq   BIGINT      NOT NULL,
    last_seq    BIGINT      NOT NULL,
    deliveries  INT         NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
INSERT INTO v460_duplicates (incident_id, first_seq, last_seq, deliveries)
SELECT incident_id, MIN(seq), MAX(seq), COUNT(*) FROM incident_history WHERE event_type = 'DuplicateDeliveryRecorded' GROUP BY incident_id;

UPDATE incident_history kept
    JOIN v460_duplicates d ON kept.incident_id = d.incident_id AND kept.seq = d.first_seq
    JOIN incident_history newest ON newest.incident_id = d.incident_id AND newest.seq = d.last_seq
SET kept.deliveries = d.deliveries, kept.last_seq = d.last_seq, kept.collapsed = 1,
    kept.detail = newest.detail, kept.dlq_topic = newest.dlq_topic, kept.dlq_partition = newest.dlq_partition, kept.dlq_offset = newest.dlq_offset;

DELETE h FROM incident_history h JOIN v460_duplicates d ON h.incident_id = d.incident_id
WHERE h.event_type = 'DuplicateDeliveryRecorded' AND h.seq <> d.first_seq;

DROP TABLE v460_duplicates;
