-- Axon's JPA stores (wiring owns V100-V199). Column types match what Hibernate expects with
-- META-INF/orm.xml applied, so ddl-auto=validate passes.

CREATE TABLE domain_event_entry (
    global_index         BIGINT       NOT NULL AUTO_INCREMENT,
    event_identifier     VARCHAR(255) NOT NULL,
    aggregate_identifier VARCHAR(255) NOT NULL,
    sequence_number      BIGINT       NOT NULL,
    type                 VARCHAR(255),
    time_stamp           VARCHAR(255) NOT NULL,
    payload_type         VARCHAR(255) NOT NULL,
    payload_revision     VARCHAR(255),
    payload              LONGBLOB     NOT NULL,
    meta_data            LONGBLOB,
    PRIMARY KEY (global_index),
    -- the event store's optimistic lock: a second event at the same sequence is refused
    CONSTRAINT uk_domain_event_aggregate_sequence UNIQUE (aggregate_identifier, sequence_number),
    CONSTRAINT uk_domain_event_identifier UNIQUE (event_identifier)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE snapshot_event_entry (
    aggregate_identifier VARCHAR(255) NOT NULL,
    sequence_number      BIGINT       NOT NULL,
    type                 VARCHAR(255) NOT NULL,
    event_identifier     VARCHAR(255) NOT NULL,
    time_stamp           VARCHAR(255) NOT NULL,
    payload_type         VARCHAR(255) NOT NULL,
    payload_revision     VARCHAR(255),
    payload              LONGBLOB     NOT NULL,
    meta_data            LONGBLOB,
    PRIMARY KEY (sequence_number, aggregate_identifier, type),
    CONSTRAINT uk_snapshot_event_identifier UNIQUE (event_identifier)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE token_entry (
    processor_name VARCHAR(255) NOT NULL,
    segment        INT          NOT NULL,
    token          LONGBLOB,
    token_type     VARCHAR(255),
    timestamp      VARCHAR(255) NOT NULL,
    owner          VARCHAR(255),
    PRIMARY KEY (segment, processor_name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE saga_entry (
    saga_id         VARCHAR(255) NOT NULL,
    saga_type       VARCHAR(255),
    revision        VARCHAR(255),
    serialized_saga LONGBLOB,
    PRIMARY KEY (saga_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE association_value_entry (
    id                BIGINT       NOT NULL AUTO_INCREMENT,
    association_key   VARCHAR(255) NOT NULL,
    association_value VARCHAR(255),
    saga_id           VARCHAR(255) NOT NULL,
    saga_type         VARCHAR(255),
    PRIMARY KEY (id),
    KEY ix_association_lookup (saga_type, association_key, association_value),
    KEY ix_association_saga (saga_id, saga_type)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Axon registers this entity even when no dead-letter queue is configured.
CREATE TABLE dead_letter_entry (
    dead_letter_id       VARCHAR(255)  NOT NULL,
    processing_group     VARCHAR(255)  NOT NULL,
    sequence_identifier  VARCHAR(255)  NOT NULL,
    sequence_index       BIGINT        NOT NULL,
    message_type         VARCHAR(255)  NOT NULL,
    event_identifier     VARCHAR(255)  NOT NULL,
    time_stamp           VARCHAR(255)  NOT NULL,
    payload_type         VARCHAR(255)  NOT NULL,
    payload_revision     VARCHAR(255),
    payload              LONGBLOB      NOT NULL,
    meta_data            LONGBLOB,
    type                 VARCHAR(255),
    aggregate_identifier VARCHAR(255),
    sequence_number      BIGINT,
    token_type           VARCHAR(255),
    token                LONGBLOB,
    enqueued_at          DATETIME(6)   NOT NULL,
    last_touched         DATETIME(6),
    processing_started   DATETIME(6),
    cause_type           VARCHAR(255),
    cause_message        VARCHAR(1023),
    diagnostics          LONGBLOB,
    PRIMARY KEY (dead_letter_id),
    KEY ix_dead_letter_group (processing_group),
    KEY ix_dead_letter_sequence (processing_group, sequence_identifier),
    CONSTRAINT uk_dead_letter_position UNIQUE (processing_group, sequence_identifier, sequence_index)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
