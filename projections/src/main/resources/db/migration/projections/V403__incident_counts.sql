-- Incidents per (dimension, value, status), kept by the incident-summary projection as incidents
-- open and change status, so counts and exception groups are read without scanning every incident.
CREATE TABLE incident_count (
    dimension  VARCHAR(16)  NOT NULL,
    value      VARCHAR(255) NOT NULL,
    status     VARCHAR(16)  NOT NULL,
    incidents  BIGINT       NOT NULL,
    PRIMARY KEY (dimension, value, status)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE exception_group (
    exception_group VARCHAR(16)  NOT NULL,
    exception_class VARCHAR(512) NOT NULL,
    fingerprint     VARCHAR(500) NOT NULL,
    PRIMARY KEY (exception_group)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- the list is read newest first with a stable tie-break in the same direction
CREATE INDEX ix_incident_summary_detected_id ON incident_summary (detected_at, incident_id);
DROP INDEX ix_incident_summary_detected_at ON incident_summary;

-- the projection must fill the new tables from every event: rebuild it
DELETE FROM incident_summary;
DELETE FROM token_entry WHERE processor_name = 'incident-summary';
