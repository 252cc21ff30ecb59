-- The as-of query reads the valid_from index backwards and pages by (valid_from, incident_id); nothing ranges over
-- valid_to alone, and closing an interval finds it by its primary key. One index less to write per status change.
DROP INDEX ix_incident_status_interval_to ON incident_status_interval;
