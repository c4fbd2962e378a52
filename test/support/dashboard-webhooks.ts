// Helpers of the dashboard's webhook tests: endpoints made in the page or through the API, read
// back through the API, and the audit entries they leave.
import { expect } from "vitest";
import { api, expectJson, operator } from "./api";
import { type DashboardClient, seedTeam, type Team } from "./dashboard";
import { createKey } from "./fixtures";
import { onEveryShard } from "./shards";

export type Env = "sandbox" | "production";

export const URL_A = "https://hooks.example.com/statements";

export interface ApiEndpoint {
  webhook_endpoint_id: string;
  url: string;
  api_version: string;
  status: string;
  description?: string;
  secret?: string;
  previous_secret_expires_at?: string;
}

/** Creates an endpoint in the page; returns the secret and id the page showed, and the page. */
export async function createInPage(
  client: DashboardClient,
  environment: Env,
  fields: Record<string, string | string[]>,
): Promise<{ secret: string; endpointId: string; html: string }> {
  const res = await client.post(`/dashboard/${environment}/webhooks`, fields);
  const html = await res.text();
  expect(res.status, html).toBe(201);
  return { ...shownSecret(html), html };
}

/** The secret and endpoint id a secret page shows. */
export function shownSecret(html: string): { secret: string; endpointId: string } {
  const secret = /id="new-secret"[^>]*value="([^"]+)"/.exec(html)?.[1] ?? "";
  const endpointId = /<dt>Endpoint id<\/dt><dd><code>(we_\w+)<\/code>/.exec(html)?.[1] ?? "";
  return { secret, endpointId };
}

/** A key of the partner in `environment` (made by the operator), for API calls. */
export async function partnerKey(partnerId: string, environment: Env): Promise<string> {
  return (await createKey(partnerId, environment, ["ACCOUNT_READ"])).apiKey;
}

/** Creates an endpoint through the API with `key`. */
export async function createThroughApi(
  key: string,
  body: Record<string, string>,
  merchantKey?: string,
): Promise<ApiEndpoint> {
  const res = await api("/v2/webhook_endpoints", {
    key,
    method: "POST",
    body,
    ...(merchantKey ? { merchantKey } : {}),
  });
  return expectJson<ApiEndpoint>(res, 201);
}

/** The endpoints `key` lists (its product's), in creation order. */
export async function listThroughApi(key: string, merchantKey?: string): Promise<ApiEndpoint[]> {
  const res = await api("/v2/webhook_endpoints?limit=100", {
    key,
    ...(merchantKey ? { merchantKey } : {}),
  });
  return (await expectJson<{ data: ApiEndpoint[] }>(res, 200)).data;
}

/**
 * Marks an endpoint disabled as the delivery consumer does after days of failures (that path is
 * tested in test/webhook-deliveries/delivery.test.ts), with the reason it records.
 */
export async function disableAsConsumerDoes(endpointId: string): Promise<void> {
  await onEveryShard(
    "UPDATE webhook_endpoints SET status = 'disabled', disabled_at = ?, disabled_reason = ?, failing_since = ? WHERE endpoint_id = ?",
    "2026-11-20T08:30:00.000Z",
    "Every delivery attempt failed for too long.",
    "2026-11-17T08:00:00.000Z",
    endpointId,
  );
}

export interface AuditRow {
  action: string;
  actor: { type: string; id: string | null; label: string };
  environment: string | null;
  target: string | null;
  details: Record<string, unknown>;
}

/** The partner's audit entries about webhooks and events, newest first. */
export async function webhookAudit(partnerId: string): Promise<AuditRow[]> {
  const res = await operator("GET", `/partners/${partnerId}/audit?limit=100`);
  const { data } = await expectJson<{ data: AuditRow[] }>(res, 200);
  return data.filter(
    (e) => e.action.startsWith("webhook_endpoint.") || e.action.startsWith("event."),
  );
}

/** A team and a sandbox key of its partner. */
export async function teamWithKey(): Promise<{ team: Team; key: string }> {
  const team = await seedTeam();
  return { team, key: await partnerKey(team.partnerId, "sandbox") };
}
