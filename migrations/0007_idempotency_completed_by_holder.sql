-- An idempotency key is completed only by the run that holds it. A run whose lock passed and was
-- taken over by a retry carries another lock token: its completion is refused, and the effect in
-- the same batch is rolled back with it, so a request that outlives its lock never acts twice.
CREATE TRIGGER `idempotency_keys_completed_by_holder`
BEFORE UPDATE OF `state` ON `idempotency_keys`
WHEN NEW.`state` = 'completed' AND NEW.`lock_token` IS NOT OLD.`lock_token`
BEGIN
  SELECT RAISE(ABORT, 'idempotency_lease_lost');
END;
