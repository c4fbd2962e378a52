// The reference's rate limits and quotas, stated from the numbers the service enforces: every
// key's and partner's limits, and in sandbox the simulations' own limit, quotas, expiry and reset.
import { RATE_LIMITS } from "../app/rate-policies";
import type { Environment } from "../domain/environment";
import { ROW_WEIGHT_BYTES, SANDBOX_BUDGETS } from "../sandbox-budgets";
import { RESET_AGES_HOURS, SANDBOX_LIMITS } from "../simulations";
import { ENDPOINT_BUDGET, MAX_DELIVERY_ATTEMPTS } from "../webhook-endpoints";

/** A count with its thousands separated, as the reference's prose writes numbers. */
function fmt(n: number): string {
  return n.toLocaleString("en-US");
}

/** An age in words. */
function age(hours: number): string {
  if (hours < 24) return hours === 1 ? "1 hour" : `${hours} hours`;
  return hours === 24 ? "1 day" : `${hours / 24} days`;
}

/** The section, as Markdown for the reference's description of `environment`'s keys. */
export function limitsSection(environment: Environment): string[] {
  const { partnerKey, partner, simulation } = RATE_LIMITS;
  const lines = [
    "## Rate limits and quotas",
    "",
    `- Each API key: ${partnerKey.limit} requests per ${partnerKey.period} seconds; every key ` +
      `of a partner's environment together: ${partner.limit} requests per ${partner.period} ` +
      "seconds. Over a limit: `429` (`RATE_LIMITED_ERROR`) with `Retry-After`, " +
      "`RateLimit-Policy` and `RateLimit`.",
    `- Each webhook endpoint, per hour counted from the first of them: ${ENDPOINT_BUDGET.recover} ` +
      `recoveries (\`POST /v2/webhook_endpoints/{id}/recover\`, one at a time: another while ` +
      `one runs answers \`409\` naming it), ${ENDPOINT_BUDGET.resend} re-sends to it ` +
      `(\`POST /v2/events/{id}/resend\`; one to every endpoint counts for each) and ` +
      `${ENDPOINT_BUDGET.enable} enables of it when disabled; then \`429\` with ` +
      "`Retry-After` until its hour ends. A re-send or a recovery keeps a delivery's retry " +
      `window; an event gets ${MAX_DELIVERY_ATTEMPTS} attempts to an endpoint in all.`,
  ];
  if (environment !== "sandbox") return lines;
  lines.push(
    `- Sandbox simulations, the API's and the dashboard's together: ${simulation.limit} ` +
      `simulations per ${simulation.period} seconds per partner (policy \`${simulation.name}\`), ` +
      "then `429`.",
    `- A partner's sandbox holds at most ${SANDBOX_LIMITS.customers} customers, whoever made ` +
      "them (quota `sandbox_customers`): simulating one more answers `400` naming the quota.",
    `- Simulations close at most ${SANDBOX_LIMITS.statementsPerDay} statements per day (UTC) ` +
      "per partner (quota `sandbox_statements_per_day`, policy `sandbox-statements`): one more " +
      "answers `429`, its message and `RateLimit` saying when the count starts again (midnight " +
      "UTC). Nothing is stored for a refused simulation.",
    "- Sandbox budgets bound what sandbox writes (simulations, orders, order events, " +
      "transaction intents) store; production keys and the operator's imports never meet them. " +
      "A write over one answers `429` (`RATE_LIMITED_ERROR`) naming the budget, with a " +
      `\`Retry-After\` of ${SANDBOX_BUDGETS.retryAfterSeconds} seconds at most, and stores ` +
      "nothing:",
    `  - \`sandbox_line_items_per_statement\`: a simulated statement carries at most ` +
      `${SANDBOX_BUDGETS.lineItemsPerStatement} line items (an imported one, 1,000): more ` +
      "answers `400` naming the budget.",
    `  - \`sandbox_line_items_per_day\`: a partner's simulated statements carry at most ` +
      `${fmt(SANDBOX_BUDGETS.lineItemsPerDay)} line items per day (UTC), all together ` +
      "(policy `sandbox-line-items`).",
    `  - \`sandbox_rows_held\`: a partner's sandbox writes hold at most ` +
      `${fmt(SANDBOX_BUDGETS.rowsHeld)} rows made in the last ${SANDBOX_LIMITS.expiryDays} days ` +
      "(a customer with its account counts 2; a statement, 1 and its line items; an order, an " +
      `order event, an intent or a test card, 1 per ${ROW_WEIGHT_BYTES / 1024} KB begun of its ` +
      "body). A write refused after the count (a conflict) keeps its count. An Admin's reset " +
      "gives back the rows of the days before its cutoff.",
    `  - \`sandbox_shard_capacity\`: once the storage a partner's sandbox shares passes ` +
      `${SANDBOX_BUDGETS.shardThreshold * 100} % of its capacity (measured every five ` +
      "minutes), its sandbox writes wait, so that production writes never fail for room.",
    `- Sandbox customers expire ${SANDBOX_LIMITS.expiryDays} days after they were made, with ` +
      "their accounts, statements, documents and events. An Admin can reset sandbox data made " +
      `more than ${RESET_AGES_HOURS.map(age).join(", ")} ago from the dashboard (Sandbox ` +
      "simulations); the audit log records each reset.",
  );
  return lines;
}
