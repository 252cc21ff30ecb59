-- The edited bytes of audited edits (the edit's event keeps the diff and this row's hash, not the bytes).
CREATE TABLE replay_edit_content (
    incident_id     VARCHAR(36)  NOT NULL,
    -- SHA-256 over the value and headers (EditedContent.hash); the publisher recomputes it before it sends
    content_hash    CHAR(64)     NOT NULL,
    value_hash      CHAR(64)     NOT NULL,
    edited_value    LONGBLOB     NOT NULL,
    -- NULL keeps the source record's headers
    edited_headers  LONGBLOB,
    created_at      DATETIME(6)  NOT NULL,
    PRIMARY KEY (incident_id, content_hash)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- An attempt that publishes an edit names its content; NULL publishes the source record as it is.
ALTER TABLE replay_outbox ADD COLUMN edit_content_hash CHAR(64) NULL;
