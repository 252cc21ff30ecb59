-- The quarantine list shows each record's sizes without reading its headers, key or value: LENGTH() of a LONGTEXT or
-- LONGBLOB reads the whole value, so a page of records of many megabytes each cost their megabytes to list. The sizes
-- are kept beside them, written with the record; the rows already there are measured once here.
ALTER TABLE dlq_quarantine
    ADD COLUMN headers_bytes BIGINT,
    ADD COLUMN key_bytes     INT,
    ADD COLUMN value_bytes   INT;
UPDATE dlq_quarantine SET headers_bytes = LENGTH(headers_json), key_bytes = LENGTH(record_key), value_bytes = LENGTH(record_value);
