-- Audited edits of incidents' source records: each proposal with its full diff, and its approval.
CREATE TABLE replay_edit (
    incident_id         VARCHAR(36)   NOT NULL,
    edit                INT           NOT NULL,
    proposed_by         VARCHAR(256)  NOT NULL,
    proposal_reason     VARCHAR(2000) NOT NULL,
    proposed_at         DATETIME(6)   NOT NULL,
    edited_value_hash   CHAR(64)      NOT NULL,
    content_hash        CHAR(64)      NOT NULL,
    edited_value_bytes  INT           NOT NULL,
    -- the EditDiff as JSON, bounded by EditDiff.MAX_CHARS
    diff                LONGTEXT      NOT NULL,
    approved_by         VARCHAR(256),
    approval_reason     VARCHAR(2000),
    approved_at         DATETIME(6),
    PRIMARY KEY (incident_id, edit)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
