// The maintenance steps of every shard, one line each, in the order a run does them (and its log
// line reports them): what the five-minute cron runs.
import { idempotencyKeysPurged } from "./app/idempotency";
import { maintenance } from "./app/maintenance";
import { credentialsPurged } from "./dashboard/session";
import { deadLettersPurged } from "./dead-letters";
import { rendersResent } from "./documents";
import { stuckMovesAborted } from "./partner-moves";
import { cardSecretsReencrypted } from "./payment-methods";
import { requestLogsPurged } from "./request-logs";
import { sandboxUsagePurged, shardSizeMeasured } from "./sandbox-budgets";
import { sandboxExpired } from "./simulations";
import { deliveriesResent, eventsPurged } from "./webhook-deliveries";
import { endpointHealthChecked, endpointSecretsSealed } from "./webhook-endpoints";

export const MAINTENANCE_STEPS = [
  deliveriesResent,
  endpointHealthChecked,
  rendersResent,
  eventsPurged,
  idempotencyKeysPurged,
  credentialsPurged,
  endpointSecretsSealed,
  cardSecretsReencrypted,
  requestLogsPurged,
  deadLettersPurged,
  sandboxExpired,
  stuckMovesAborted,
  sandboxUsagePurged,
  shardSizeMeasured,
];

/** The `scheduled()` handler. */
export const runMaintenance = maintenance(MAINTENANCE_STEPS);
