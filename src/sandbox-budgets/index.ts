// The sandbox's volume budgets: line items a day, rows held, a simulated statement's line items,
// and the shard's guard; what routes call before a sandbox write, and the maintenance steps.
export {
  type BudgetName,
  budgetExceeded,
  nextDay,
  SANDBOX_BUDGETS,
  SHARD_CAPACITY_BYTES,
  SHARD_THRESHOLD_BYTES,
  tooManyLineItems,
} from "./budgets";
export { chargeSandboxBudget, ROW_WEIGHT_BYTES, rowWeight } from "./charge";
export { sandboxUsagePurged, shardSizeMeasured } from "./maintenance";
export { sandboxUsage } from "./schema";
export {
  type Budgeted,
  budgetRoom,
  countUsage,
  refusedBy,
  releaseRowsBefore,
  SANDBOX_EXPIRY_DAYS,
  type SandboxCharge,
  statementsToday,
  stateOf,
  type UsageState,
  usageDay,
  usageState,
} from "./usage";
