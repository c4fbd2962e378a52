// The audit of a view of production customers' data in the dashboard: the data browser's pages,
// the request log's production pages and the version preview's production statements all write
// their row before the data is read, so that no production data is shown without it. Sandbox
// views are not audited.
import type { Context } from "hono";
import { userActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { auditInsert } from "../db/audit";
import { atomically } from "../db/batch";
import type { Environment } from "../domain/environment";

/** The pages whose views of production data are audited. */
export type DataPage =
  | "customers"
  | "customer"
  | "account"
  | "statement"
  | "request_log"
  | "request"
  | "version_preview";

/**
 * Writes the view of `environment`'s customer data on `page` (about `target`) to the audit log,
 * when it is production's; answers once it is stored.
 */
export async function auditDataView(
  c: Context<AppEnv>,
  page: DataPage,
  target: string | null,
  environment: Environment = c.var.environment,
): Promise<void> {
  if (environment !== "production") return;
  const { user } = c.var.session;
  await atomically(c.get("db"), [
    auditInsert(
      user.partnerId,
      userActor(c, user),
      { action: "customer_data.viewed", environment, target, details: { page } },
      c.get("now")(),
    ),
  ]);
}
