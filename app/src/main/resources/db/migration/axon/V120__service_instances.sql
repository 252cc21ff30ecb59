-- One row per running instance of the service, refreshed by its heartbeat: how many share the
-- event processors' segments (see InstanceRegistry). Times are the database's, never an instance's clock.
CREATE TABLE service_instance (
    instance_id  VARCHAR(255) NOT NULL,
    started_at   DATETIME(6)  NOT NULL,
    heartbeat_at DATETIME(6)  NOT NULL,
    PRIMARY KEY (instance_id),
    KEY ix_service_instance_heartbeat (heartbeat_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
