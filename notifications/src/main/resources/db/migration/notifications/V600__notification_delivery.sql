-- notifications owns V600-V699.
-- One row per notification and receiver (dlqdesk.notifications.webhooks[n].name), written in the transaction of
-- whatever noticed it (the incident-notifications processor, or the ingest stall watch), sent by that receiver's
-- own sender. The body is the exact JSON to send (its preset applied), so every try sends the same bytes.
-- Times are UTC from the database clock.
CREATE TABLE notification_delivery (
    id              BIGINT        NOT NULL AUTO_INCREMENT,
    receiver        VARCHAR(64)   NOT NULL,
    -- the same for every receiver of one notification; receivers deduplicate by it (X-DlqDesk-Delivery)
    notification_id VARCHAR(200)  NOT NULL,
    event           VARCHAR(40)   NOT NULL,
    body            MEDIUMTEXT    NOT NULL,
    -- PENDING until DELIVERED (a 2xx answer) or GAVE_UP (a failed try after the retry window)
    status          VARCHAR(16)   NOT NULL,
    tries           INT           NOT NULL,
    created_at      DATETIME(6)   NOT NULL,
    -- when the row is due: after a failed try, after the backoff; while a sender holds it, after its lease
    next_attempt_at DATETIME(6)   NOT NULL,
    decided_at      DATETIME(6),
    last_error      VARCHAR(1000),
    PRIMARY KEY (id),
    UNIQUE KEY ux_notification_delivery (receiver, notification_id),
    KEY ix_notification_delivery_due (receiver, status, next_attempt_at),
    KEY ix_notification_delivery_decided (status, decided_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Exception groups the incident-notifications processor has seen, so each is announced once (history included:
-- the processor reads it first, as a replay, announcing nothing).
CREATE TABLE notification_exception_group (
    exception_group   VARCHAR(16) NOT NULL,
    first_incident_id VARCHAR(36) NOT NULL,
    first_seen_at     DATETIME(6) NOT NULL,
    PRIMARY KEY (exception_group)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
