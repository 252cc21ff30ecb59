-- What admins did to parked events (ParkedEventsRetried, ParkedEventEvicted), for the audit trail beside the incidents'
-- operator actions. One row per event (its id): handling an event again adds nothing.
CREATE TABLE parked_event_action (
    event_id            VARCHAR(36)   NOT NULL,
    action              VARCHAR(32)   NOT NULL,
    occurred_at         DATETIME(6)   NOT NULL,
    principal           VARCHAR(256)  NOT NULL,
    reason              VARCHAR(2000) NOT NULL,
    processing_group    VARCHAR(255)  NOT NULL,
    sequence_identifier VARCHAR(255),
    detail              VARCHAR(1000) NOT NULL,
    PRIMARY KEY (event_id),
    KEY ix_parked_event_action_time (occurred_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
