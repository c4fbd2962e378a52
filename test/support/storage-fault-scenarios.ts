// The requests the storage-fault tests break, one per kind of storage work: each builds fresh
// data, then says how to send its request and how to read what that request may change.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import app from "../../src/index";
import { api, expectJson, operator } from "./api";
import { executionContext } from "./app-env";
import { NEWEST_RELEASED } from "./bundle-versions";
import { formInit, seedTeam } from "./dashboard";
import {
  createKey,
  type Fixture,
  monthlyStatement,
  pdfBytes,
  seedAccount,
  statementsPath,
  uniqueId,
} from "./fixtures";
import { SHARDS, shardDatabase } from "./shards";
import { BASE, OPERATOR_TOKEN } from "./worker";

export interface Prepared {
  request(): Request;
  /** What the request may change, read straight from storage. */
  state(): Promise<unknown>;
}

export interface Scenario {
  name: string;
  status: number;
  prepare(): Promise<Prepared>;
}

/** The rows `sql` selects on every shard, shard by shard: wherever the partner's rows are. */
export async function row(sql: string, ...values: unknown[]): Promise<unknown[]> {
  const rows: unknown[] = [];
  for (const shard of SHARDS) {
    const { results } = await shardDatabase(shard)
      .prepare(sql)
      .bind(...values)
      .all();
    rows.push(...results);
  }
  return rows;
}

const partnerRequest = (f: Fixture, path: string, init: RequestInit = {}) =>
  new Request(`${BASE}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${f.key}`, "content-type": "application/json" },
  });
export const operatorRequest = (path: string, init: RequestInit = {}, type = "application/json") =>
  new Request(`${BASE}/operator/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": type },
  });

/** A fixture whose first statement has a PDF, with a fresh link to it. */
async function withPdf(): Promise<{ f: Fixture; statementId: string; link: string }> {
  const f = await seedAccount({ statements: 2 });
  const statementId = `${f.accountId}_st_002`;
  const upload = await operator("PUT", `/statements/${statementId}/pdf`, pdfBytes("faults"), {
    "content-type": "application/pdf",
  });
  expect(upload.status).toBe(204);
  const page = await expectJson<{ data: { pdf_url: string }[] }>(
    await api(statementsPath(f), { key: f.key }),
    200,
  );
  return { f, statementId, link: String(page.data[0]?.pdf_url) };
}

const unchanged = async () => null;

/** One closed statement a day from 2020-01-01: as many as an import may hold, all in the past. */
export function dailyStatement(accountId: string, day: number) {
  const start = Date.UTC(2020, 0, 1) + day * 86_400_000;
  return {
    statement_id: `${accountId}_d${String(day).padStart(4, "0")}`,
    account_id: accountId,
    period_end_date: new Date(start + 86_399_000).toISOString(),
    statement_balance: day,
  };
}

export const SCENARIOS: Scenario[] = [
  {
    name: "a dashboard page",
    status: 200,
    async prepare() {
      const { admin } = await seedTeam();
      return {
        request: () =>
          new Request(`${BASE}/dashboard/sandbox/keys`, {
            headers: { cookie: admin.cookie, "cf-connecting-ip": admin.ip },
          }),
        state: unchanged,
      };
    },
  },
  {
    name: "creating a key in the dashboard",
    status: 201,
    async prepare() {
      const team = await seedTeam();
      const csrf = await team.admin.csrf();
      return {
        request: () =>
          new Request(
            `${BASE}/dashboard/sandbox/keys`,
            formInit(
              { csrf, name: "faulty" },
              { cookie: team.admin.cookie, "cf-connecting-ip": team.admin.ip },
            ),
          ),
        state: () => row("SELECT count(*) AS n FROM api_keys WHERE partner_id = ?", team.partnerId),
      };
    },
  },
  {
    name: "a statements page",
    status: 200,
    async prepare() {
      const f = await seedAccount({ statements: 3 });
      return { request: () => partnerRequest(f, statementsPath(f, "?limit=2")), state: unchanged };
    },
  },
  {
    name: "a continuation page",
    status: 200,
    async prepare() {
      const f = await seedAccount({ statements: 3 });
      const first = await expectJson<{ next_page_token: string }>(
        await api(statementsPath(f, "?limit=1"), { key: f.key }),
        200,
      );
      const path = statementsPath(f, `?limit=1&starting_after=${first.next_page_token}`);
      return { request: () => partnerRequest(f, path), state: unchanged };
    },
  },
  {
    name: "a statements request for an unknown account",
    status: 404,
    async prepare() {
      const f = await seedAccount();
      const path = statementsPath({ customerId: f.customerId, accountId: "acc_nowhere" });
      return { request: () => partnerRequest(f, path), state: unchanged };
    },
  },
  ...["", "/accounts", "/accounts/ACCOUNT"].map(
    (suffix): Scenario => ({
      name: `GET /v2/customers/{id}${suffix}`,
      status: 200,
      async prepare() {
        const f = await seedAccount({ statements: 1 });
        const path = `/v2/customers/${f.customerId}${suffix.replace("ACCOUNT", f.accountId)}`;
        return { request: () => partnerRequest(f, path), state: unchanged };
      },
    }),
  ),
  {
    name: "GET /v2/customers",
    status: 200,
    async prepare() {
      const f = await seedAccount();
      return { request: () => partnerRequest(f, "/v2/customers"), state: unchanged };
    },
  },
  {
    name: "linking a customer",
    status: 200,
    async prepare() {
      const f = await seedAccount();
      return {
        request: () =>
          partnerRequest(f, `/v2/customers/${f.customerId}/link`, {
            method: "POST",
            body: JSON.stringify({ partner_customer_id: "p-faults" }),
          }),
        state: () =>
          row("SELECT partner_customer_id FROM customers WHERE customer_id = ?", f.customerId),
      };
    },
  },
  {
    name: "creating a key",
    status: 201,
    async prepare() {
      const f = await seedAccount();
      return {
        request: () => partnerRequest(f, "/v2/keys", { method: "POST", body: "{}" }),
        state: () => row("SELECT key_id FROM api_keys WHERE partner_id = ?", f.partnerId),
      };
    },
  },
  ...[
    ["downloading a PDF", "GET", {}, 200],
    ["a HEAD of a PDF", "HEAD", {}, 200],
    ["a range of a PDF", "GET", { range: "bytes=0-3" }, 206],
    ["a conditional download that sends the PDF", "GET", { "if-none-match": '"other"' }, 200],
    ["a download refused by its precondition", "GET", { "if-match": '"other"' }, 412],
  ].map(
    ([name, method, headers, status]): Scenario => ({
      name: name as string,
      status: status as number,
      async prepare() {
        const { link } = await withPdf();
        return {
          request: () =>
            new Request(link, { method: method as string, headers: headers as HeadersInit }),
          state: unchanged,
        };
      },
    }),
  ),
  {
    name: "an import of new rows",
    status: 200,
    async prepare() {
      const [partnerId, customerId, accountId] = [uniqueId("p"), uniqueId("cus"), uniqueId("acc")];
      const merchantKey = uniqueId("mk");
      const payload = {
        partners: [
          {
            partner_id: partnerId,
            name: "Faults",
            products: [{ merchant_key: merchantKey, name: "Card", documents: "uploaded" }],
          },
        ],
        customers: [
          {
            customer_id: customerId,
            partner_id: partnerId,
            environment: "sandbox",
            merchant_key: merchantKey,
          },
        ],
        accounts: [{ account_id: accountId, customer_id: customerId }],
        statements: Array.from({ length: 20 }, (_, i) => monthlyStatement(accountId, i + 1)),
      };
      return {
        request: () =>
          operatorRequest("/import", { method: "POST", body: JSON.stringify(payload) }),
        state: async () => [
          await row("SELECT * FROM partners WHERE partner_id = ?", partnerId),
          await row("SELECT * FROM products WHERE merchant_key = ?", merchantKey),
          await row("SELECT * FROM customers WHERE customer_id = ?", customerId),
          await row("SELECT * FROM accounts WHERE account_id = ?", accountId),
          await row("SELECT statement_id FROM statements WHERE account_id = ?", accountId),
        ],
      };
    },
  },
  {
    name: "an import that changes stored rows",
    status: 200,
    async prepare() {
      const f = await seedAccount({ statements: 2 });
      const payload = {
        partners: [{ partner_id: f.partnerId, name: "Renamed", saved_versions: {} }],
        accounts: [{ account_id: f.accountId, customer_id: f.customerId, current_balance: 4242 }],
        statements: [3, 4, 5].map((m) => monthlyStatement(f.accountId, m)),
      };
      return {
        request: () =>
          operatorRequest("/import", { method: "POST", body: JSON.stringify(payload) }),
        state: async () => [
          await row("SELECT name FROM partners WHERE partner_id = ?", f.partnerId),
          await row("SELECT * FROM accounts WHERE account_id = ?", f.accountId),
          await row(
            "SELECT statement_id FROM statements WHERE account_id = ? ORDER BY 1",
            f.accountId,
          ),
        ],
      };
    },
  },
  {
    name: "an operator creating a key",
    status: 201,
    async prepare() {
      const f = await seedAccount();
      const body = JSON.stringify({ environment: "sandbox", scopes: ["ACCOUNT_READ"] });
      return {
        request: () => operatorRequest(`/partners/${f.partnerId}/keys`, { method: "POST", body }),
        state: () => row("SELECT key_id FROM api_keys WHERE partner_id = ?", f.partnerId),
      };
    },
  },
  {
    name: "revoking a key",
    status: 204,
    async prepare() {
      const f = await seedAccount();
      const { keyId } = await createKey(f.partnerId, "sandbox", []);
      return {
        request: () => operatorRequest(`/keys/${keyId}`, { method: "DELETE" }),
        state: () => row("SELECT revoked_at FROM api_keys WHERE key_id = ?", keyId),
      };
    },
  },
  {
    name: "saving a version",
    status: 200,
    async prepare() {
      const f = await seedAccount();
      return {
        request: () =>
          operatorRequest(`/partners/${f.partnerId}/saved-versions/sandbox`, {
            method: "PUT",
            body: JSON.stringify({ version: NEWEST_RELEASED }),
          }),
        state: () =>
          row("SELECT saved_version_sandbox FROM partners WHERE partner_id = ?", f.partnerId),
      };
    },
  },
  {
    name: "uploading a PDF over an earlier one",
    status: 204,
    async prepare() {
      const { statementId, link } = await withPdf();
      return {
        request: () =>
          operatorRequest(
            `/statements/${statementId}/pdf`,
            { method: "PUT", body: pdfBytes("replacement") },
            "application/pdf",
          ),
        // The row, and the bytes its link serves.
        state: async () => [
          await row("SELECT pdf_key FROM statements WHERE statement_id = ?", statementId),
          new Uint8Array(
            await (await app.fetch(new Request(link), env, executionContext())).arrayBuffer(),
          ),
        ],
      };
    },
  },
  {
    name: "hiding a statement",
    status: 204,
    async prepare() {
      const f = await seedAccount({ statements: 1 });
      const id = `${f.accountId}_st_001`;
      return {
        request: () => operatorRequest(`/statements/${id}/hide`, { method: "POST" }),
        state: () => row("SELECT hidden_at FROM statements WHERE statement_id = ?", id),
      };
    },
  },
  {
    name: "restating a statement",
    status: 201,
    async prepare() {
      const f = await seedAccount({ statements: 1 });
      const id = `${f.accountId}_st_001`;
      const correction = {
        ...monthlyStatement(f.accountId, 1, `${f.accountId}_fix`),
        fees: 0,
        line_items: [
          {
            line_item_id: "li_1",
            type: "PURCHASE",
            posted_at: "2024-01-15T12:00:00Z",
            description: "BOOKSHOP",
            amount: 4000,
          },
          {
            line_item_id: "li_2",
            type: "PAYMENT",
            posted_at: "2024-01-20T12:00:00Z",
            description: "PAYMENT - THANK YOU",
            amount: -3000,
          },
          {
            line_item_id: "li_3",
            type: "REFUND",
            posted_at: "2024-01-21T12:00:00Z",
            description: "BOOKSHOP REFUND",
            amount: -200,
          },
          {
            line_item_id: "li_4",
            type: "INTEREST",
            posted_at: "2024-01-31T12:00:00Z",
            description: "INTEREST CHARGE",
            amount: 150,
          },
        ],
        statement_balance: 9950,
      };
      return {
        request: () =>
          operatorRequest(`/statements/${id}/restatements`, {
            method: "POST",
            body: JSON.stringify(correction),
          }),
        // Both statements, the correction's line items, their events and the audit row.
        state: async () => ({
          statements: await row(
            "SELECT statement_id, restated_by, restates, fees FROM statements " +
              "WHERE account_id = ? ORDER BY statement_id",
            f.accountId,
          ),
          items: await row(
            "SELECT count(*) AS n FROM statement_line_items WHERE statement_id = ?",
            correction.statement_id,
          ),
          events: await row(
            "SELECT type, statement_id FROM events WHERE account_id = ? ORDER BY type, statement_id",
            f.accountId,
          ),
          audit: await row(
            "SELECT count(*) AS n FROM audit_events WHERE partner_id = ? AND target = ?",
            f.partnerId,
            id,
          ),
        }),
      };
    },
  },
];
