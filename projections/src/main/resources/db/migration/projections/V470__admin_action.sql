-- Admins' actions outside any incident's history: on parked events (ParkedEventsRetried, ParkedEventEvicted) and on the read
-- models (ReadModelRebuildRequested, ReadModelRebuildCancelled). processing_group names the processor for the latter.
RENAME TABLE parked_event_action TO admin_action;
ALTER TABLE admin_action RENAME INDEX ix_parked_event_action_time TO ix_admin_action_time;
