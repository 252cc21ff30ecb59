-- An attempt marked PUBLISH_UNKNOWN now has a decision time (the mark's): the rollback checker's
-- retry bound counts from it. Rebuild the read model (its processor starts over).
DELETE FROM replay_attempt;
DELETE FROM token_entry WHERE processor_name = 'rollback-facts';
