-- Axon's token table as the app's V100 creates it: the read models' migrations move and delete processor tokens in it.
CREATE TABLE token_entry (
    processor_name VARCHAR(255) NOT NULL,
    segment        INT          NOT NULL,
    token          LONGBLOB,
    token_type     VARCHAR(255),
    timestamp      VARCHAR(255) NOT NULL,
    owner          VARCHAR(255),
    PRIMARY KEY (segment, processor_name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
