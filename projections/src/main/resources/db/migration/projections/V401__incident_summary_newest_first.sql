-- the incident list is read newest first
CREATE INDEX ix_incident_summary_detected_at ON incident_summary (detected_at);
