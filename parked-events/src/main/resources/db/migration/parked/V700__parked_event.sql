-- Axon's sequenced dead-letter queue (JdbcSequencedDeadLetterQueue), one table for every event processor: an event a
-- processing group could not handle is parked here with its sequence (the aggregate), and the group's later events of
-- that aggregate wait behind it while every other aggregate flows (docs/operations.md, "Parked events").
-- Column names are set in ParkedEventQueues (DeadLetterSchema). Axon writes its instants as ISO-8601 text with three
-- fraction digits, so the text columns sort as time does.
CREATE TABLE parked_event (
    dead_letter_id       VARCHAR(255) NOT NULL,
    processing_group     VARCHAR(255) NOT NULL,
    sequence_identifier  VARCHAR(255) NOT NULL,
    sequence_index       BIGINT       NOT NULL,
    message_type         VARCHAR(255) NOT NULL,
    event_identifier     VARCHAR(255) NOT NULL,
    time_stamp           VARCHAR(255) NOT NULL,
    payload_type         VARCHAR(255) NOT NULL,
    payload_revision     VARCHAR(255),
    payload              LONGBLOB     NOT NULL,
    meta_data            LONGBLOB,
    aggregate_type       VARCHAR(255),
    aggregate_identifier VARCHAR(255),
    sequence_number      BIGINT,
    token_type           VARCHAR(255),
    token                LONGBLOB,
    enqueued_at          VARCHAR(255) NOT NULL,
    last_touched         VARCHAR(255),
    processing_started   VARCHAR(255),
    cause_type           VARCHAR(255),
    cause_message        VARCHAR(1023),
    diagnostics          LONGBLOB,
    PRIMARY KEY (dead_letter_id),
    CONSTRAINT uk_parked_event_position UNIQUE (processing_group, sequence_identifier, sequence_index),
    KEY ix_parked_event_group_touched (processing_group, last_touched)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
