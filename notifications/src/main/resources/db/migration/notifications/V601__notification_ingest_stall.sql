-- The ingest stalls announced (ingest-stalled written) and not ended yet: the row is written in the transaction of the
-- ingest-stalled deliveries and deleted in that of the ingest-recovered ones. An instance that stops, dies or is
-- replaced before it could write its recovery leaves its row; another instance (its successor included) ends the stall
-- for it once that instance has no live heartbeat in service_instance (see IngestStallWatch).
CREATE TABLE notification_ingest_stall (
    -- service_instance.instance_id of the stalled instance
    instance         VARCHAR(255) NOT NULL,
    -- the stall's start by that instance's clock, epoch milliseconds: part of both notifications' ids
    stalled_since_ms BIGINT       NOT NULL,
    recorded_at      DATETIME(6)  NOT NULL,
    PRIMARY KEY (instance, stalled_since_ms)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
