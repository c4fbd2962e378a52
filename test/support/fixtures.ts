// Test data, built through the operator API exactly as an operator would load it: partners,
// customers, accounts, monthly statements and keys, each under ids no other test uses.
import { env } from "cloudflare:workers";
import type * as z from "zod";
import { shardJurisdiction } from "../../src/db/shards";
import type { importPayloadSchema } from "../../src/domain/import-payload";
import type { Jurisdiction } from "../../src/domain/jurisdiction";
import { operator } from "./api";
import { OLDEST } from "./bundle-versions";
import { partnerDatabase } from "./shards";

let counter = 0;
/** An id no other test uses, so tests stay independent whatever storage they share. */
export function uniqueId(prefix: string): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
}

/** Imports a payload through `POST /operator/v1/import` and expects it to succeed. */
export async function importData(payload: ImportPayload): Promise<void> {
  const res = await operator("POST", "/import", payload);
  if (res.status !== 200) throw new Error(`import failed: ${res.status} ${await res.text()}`);
}

/** Creates a key through the operator API; returns the plaintext key. */
export async function createKey(
  partnerId: string,
  environment: "sandbox" | "production",
  scopes: string[],
): Promise<{ apiKey: string; keyId: string }> {
  const res = await operator("POST", `/partners/${partnerId}/keys`, { environment, scopes });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { api_key: string; key_id: string };
  return { apiKey: body.api_key, keyId: body.key_id };
}

/**
 * Stores `count` keys of the partner straight in the table (quicker than minting them), live
 * unless `state` says otherwise.
 */
export async function storeKeys(
  partnerId: string,
  environment: "sandbox" | "production",
  count: number,
  state: "live" | "revoked" | "expired" = "live",
): Promise<string[]> {
  const now = new Date().toISOString();
  const ids = Array.from({ length: count }, () => uniqueId("key"));
  const db = await partnerDatabase(partnerId);
  await db.batch(
    ids.map((id) =>
      db
        .prepare(
          `INSERT INTO api_keys (key_id, key_hash, partner_id, environment, scopes, created_at,
           created_by, revoked_at, expires_at) VALUES (?, ?, ?, ?, '[]', ?, 'operator', ?, ?)`,
        )
        .bind(
          id,
          uniqueId("hash"),
          partnerId,
          environment,
          now,
          state === "revoked" ? now : null,
          state === "expired" ? now : null,
        ),
    ),
  );
  return ids;
}

// The operator import payload (CONTRACT §5), as the service's own schema accepts it.
export type ImportPayload = z.input<ReturnType<typeof importPayloadSchema>>;
export type StatementInput = NonNullable<ImportPayload["statements"]>[number];

/** A statement closing at the end of month `month` (1-based, counted from January 2024). */
export function monthlyStatement(accountId: string, month: number, id?: string): StatementInput {
  const start = new Date(Date.UTC(2024, month - 1, 1));
  const end = new Date(Date.UTC(2024, month, 0, 23, 59, 59));
  const due = new Date(Date.UTC(2024, month, 25));
  return {
    statement_id: id ?? `${accountId}_st_${String(month).padStart(3, "0")}`,
    account_id: accountId,
    period_start_date: start.toISOString(),
    period_end_date: end.toISOString(),
    due_date: due.toISOString(),
    currency: "USD",
    statement_balance: 10000 + month,
    minimum_due: 2500,
    previous_balance: 9000,
    purchases: 4000,
    payments: -3000,
    refunds: -200,
    interest: 150,
    fees: 50,
    overdue_amount: 0,
  };
}

/** A minimal valid PDF document. */
export function pdfBytes(text = "statement"): Uint8Array {
  return new TextEncoder().encode(`%PDF-1.4\n% ${text}\n%%EOF\n`);
}

export interface Fixture {
  partnerId: string;
  merchantKey: string;
  customerId: string;
  accountId: string;
  /** Sandbox key with ACCOUNT_READ. */
  key: string;
  keyId: string;
}

/**
 * The import of a new partner with one product, a sandbox customer with one account holding
 * `statements` monthly statements (month 1 oldest), with its ids. The partner saves the oldest
 * version of the bundle unless told otherwise, and is placed by the default rule unless a shard
 * is named. Its jurisdiction is the named shard's (none by default).
 */
export function newAccountImport(
  options: {
    statements?: number;
    savedVersion?: string;
    shard?: string;
    jurisdiction?: Jurisdiction;
    /**
     * How the product's documents come to be. Fixtures upload theirs unless a test is about
     * rendering: every statement of a rendering product is drawn by the renderer Worker.
     */
    documents?: "rendered" | "uploaded";
  } = {},
) {
  const ids = {
    partnerId: uniqueId("partner"),
    merchantKey: uniqueId("mk"),
    customerId: uniqueId("cus"),
    accountId: uniqueId("acc"),
  };
  const saved = options.savedVersion ?? OLDEST;
  const jurisdiction =
    options.jurisdiction ??
    (options.shard === undefined ? undefined : shardJurisdiction(env, options.shard));
  const payload: ImportPayload = {
    partners: [
      {
        partner_id: ids.partnerId,
        name: "Test Partner",
        ...(options.shard === undefined ? {} : { shard: options.shard }),
        ...(jurisdiction === undefined || jurisdiction === "none" ? {} : { jurisdiction }),
        products: [
          {
            merchant_key: ids.merchantKey,
            name: "Test Card",
            documents: options.documents ?? "uploaded",
          },
        ],
        saved_versions: { sandbox: saved, production: saved },
      },
    ],
    customers: [
      {
        customer_id: ids.customerId,
        partner_id: ids.partnerId,
        environment: "sandbox",
        merchant_key: ids.merchantKey,
      },
    ],
    accounts: [
      { account_id: ids.accountId, customer_id: ids.customerId, status: "OPEN", currency: "USD" },
    ],
    statements: Array.from({ length: options.statements ?? 0 }, (_, i) =>
      monthlyStatement(ids.accountId, i + 1),
    ),
  };
  return { ids, payload };
}

/**
 * A partner with one product, a sandbox customer with one account holding `statements` monthly
 * statements (month 1 oldest), and a sandbox ACCOUNT_READ key (see `newAccountImport`).
 */
export async function seedAccount(
  options: Parameters<typeof newAccountImport>[0] & { scopes?: string[] } = {},
): Promise<Fixture> {
  const { ids, payload } = newAccountImport(options);
  await importData(payload);
  const { apiKey, keyId } = await createKey(
    ids.partnerId,
    "sandbox",
    options.scopes ?? ["ACCOUNT_READ"],
  );
  return { ...ids, key: apiKey, keyId };
}

/** The statements path of a fixture's account. */
export function statementsPath(f: { customerId: string; accountId: string }, query = ""): string {
  return `/v2/customers/${f.customerId}/accounts/${f.accountId}/statements${query}`;
}
