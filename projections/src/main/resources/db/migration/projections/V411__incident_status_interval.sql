-- Point-in-time audit from a read model: every status an incident had, as an interval of event time
-- [valid_from, valid_to) in epoch nanoseconds (exact: an event's timestamp is compared to the asked
-- instant as the event store records it). valid_to is the largest BIGINT while the status holds, so
-- "valid_to > T" is an index range like "valid_from <= T".
CREATE TABLE incident_status_interval (
    incident_id    VARCHAR(36)  NOT NULL,
    seq            BIGINT       NOT NULL,
    status         VARCHAR(16)  NOT NULL,
    valid_from     BIGINT       NOT NULL,
    valid_to       BIGINT       NOT NULL,
    topic          VARCHAR(249) NOT NULL,
    partition_no   INT          NOT NULL,
    record_offset  BIGINT       NOT NULL,
    consumer_group VARCHAR(255) NOT NULL,
    PRIMARY KEY (incident_id, seq),
    KEY ix_incident_status_interval_from (valid_from, incident_id),
    KEY ix_incident_status_interval_to (valid_to, incident_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
