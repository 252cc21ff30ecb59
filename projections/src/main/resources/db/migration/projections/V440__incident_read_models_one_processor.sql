-- The incident list, history and as-of read models run in one event processor, 'incident-read-models', which reads
-- each event once for all three (they had a processor each). Stop every instance before starting this version: an
-- instance of the last one would go on running the old processors next to the new one.
--
-- Where the three old processors stopped at the same tokens, segment by segment (a desk stopped while caught up), the
-- new processor goes on from there and nothing is rebuilt. The tokens to carry over are chosen into a table of their
-- own first: MySQL does not let an INSERT read its target table in a subquery. (Dropped first: on MySQL a failed
-- migration does not roll back its DDL, so a second try may find it.)
DROP TABLE IF EXISTS v440_carried_token;
CREATE TABLE v440_carried_token (
    segment    INT          NOT NULL PRIMARY KEY,
    token      LONGBLOB,
    token_type VARCHAR(255),
    timestamp  VARCHAR(255) NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

INSERT INTO v440_carried_token (segment, token, token_type, timestamp)
SELECT summary.segment, summary.token, summary.token_type, summary.timestamp
FROM token_entry summary
WHERE summary.processor_name = 'incident-summary'
  AND NOT EXISTS (SELECT 1 FROM token_entry taken WHERE taken.processor_name = 'incident-read-models')
  AND (SELECT COUNT(*) FROM token_entry old WHERE old.processor_name IN ('incident-history', 'incident-as-of'))
      = 2 * (SELECT COUNT(*) FROM token_entry old WHERE old.processor_name = 'incident-summary')
  AND NOT EXISTS (
      SELECT 1
      FROM token_entry s
      WHERE s.processor_name = 'incident-summary'
        AND (NOT EXISTS (SELECT 1 FROM token_entry h
                         WHERE h.processor_name = 'incident-history' AND h.segment = s.segment
                           AND h.token <=> s.token AND h.token_type <=> s.token_type)
          OR NOT EXISTS (SELECT 1 FROM token_entry a
                         WHERE a.processor_name = 'incident-as-of' AND a.segment = s.segment
                           AND a.token <=> s.token AND a.token_type <=> s.token_type)));

INSERT INTO token_entry (processor_name, segment, token, token_type, timestamp, owner)
SELECT 'incident-read-models', segment, token, token_type, timestamp, NULL FROM v440_carried_token;
DROP TABLE v440_carried_token;

-- Otherwise (one was behind or in error, or their segments differ) no single position is right for all three: they
-- are emptied and the new processor rebuilds them from the first event.
DELETE FROM incident_summary WHERE NOT EXISTS (SELECT 1 FROM token_entry WHERE processor_name = 'incident-read-models');
DELETE FROM incident_count WHERE NOT EXISTS (SELECT 1 FROM token_entry WHERE processor_name = 'incident-read-models');
DELETE FROM exception_group WHERE NOT EXISTS (SELECT 1 FROM token_entry WHERE processor_name = 'incident-read-models');
DELETE FROM incident_history WHERE NOT EXISTS (SELECT 1 FROM token_entry WHERE processor_name = 'incident-read-models');
DELETE FROM incident_status_interval WHERE NOT EXISTS (SELECT 1 FROM token_entry WHERE processor_name = 'incident-read-models');

DELETE FROM token_entry WHERE processor_name IN ('incident-summary', 'incident-history', 'incident-as-of');
