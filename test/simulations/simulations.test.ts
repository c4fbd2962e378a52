// The sandbox's simulations: a partner makes its own customers and closes its own billing cycles,
// with sandbox keys only (a production key gets exactly an unknown route's 404), the ACCOUNT_READ
// scope, the Idempotency-Key honoured, bodies checked field by field in every version's shape,
// and another partner's or a production customer as unknown as one that never existed.
import { describe, expect, it } from "vitest";
import { bundle } from "../../src/bundle";
import { api, type ErrorBody, expectJson, type StatementList } from "../support/api";
import { ALL_VERSIONS, OLDEST, versionsBefore, versionsWith } from "../support/bundle-versions";
import { eventually } from "../support/eventually";
import {
  createKey,
  type Fixture,
  importData,
  seedAccount,
  statementsPath,
  uniqueId,
} from "../support/fixtures";

interface Account {
  account_id: string;
  customer_id: string;
  status: string;
  currency: string;
  credit_limit: number;
  current_balance: number;
  available_credit: number;
  as_of: string;
}

interface Customer {
  customer_id: string;
  partner_customer_id?: string;
  authorized_users?: unknown[];
  accounts: Account[];
}

type Statement = Record<string, unknown> & { statement_id: string; statement_balance: number };

const AMOUNTS = ["purchases", "payments", "credits", "refunds", "interest", "fees"] as const;

function simulate(f: { key: string }, what: string, body?: unknown, headers = {}) {
  return api(`/v2/simulations/${what}`, {
    key: f.key,
    method: "POST",
    ...(body === undefined ? {} : { body }),
    headers,
  });
}

async function newCustomer(f: { key: string }, body?: unknown): Promise<Customer> {
  return expectJson<Customer>(await simulate(f, "customers", body), 201);
}

async function closeCycle(f: { key: string }, body: unknown): Promise<Statement> {
  return expectJson<Statement>(await simulate(f, "statements", body), 201);
}

/** statement_balance = previous_balance + every line of activity, and each line in its sign. */
function expectConsistent(s: Statement): void {
  const sum = AMOUNTS.reduce((total, field) => total + ((s[field] as number) ?? 0), 0);
  expect(s.statement_balance).toBe((s.previous_balance as number) + sum);
  for (const field of ["purchases", "interest", "fees"] as const) {
    if (s[field] !== undefined) expect(s[field]).toBeGreaterThanOrEqual(0);
  }
  for (const field of ["payments", "credits", "refunds"] as const) {
    if (s[field] !== undefined) expect(s[field]).toBeLessThanOrEqual(0);
  }
  expect(s.minimum_due).toBeGreaterThanOrEqual(0);
  expect(s.minimum_due).toBeLessThanOrEqual(Math.max(s.statement_balance, 0));
}

describe("POST /v2/simulations/customers", () => {
  it("creates a customer with one open account, as the reads show them", async () => {
    const f = await seedAccount();
    const created = await newCustomer(f);
    expect(created.customer_id).toMatch(/^cus_[A-Za-z0-9]{25}$/);
    expect(created.accounts).toHaveLength(1);
    const [account] = created.accounts;
    expect(account).toEqual({
      account_id: expect.stringMatching(/^acc_[A-Za-z0-9]{25}$/),
      customer_id: created.customer_id,
      status: "OPEN",
      currency: "USD",
      credit_limit: 500000,
      current_balance: 0,
      available_credit: 500000,
      as_of: expect.any(String),
    });
    const { accounts, ...customer } = created;
    const read = await api(`/v2/customers/${created.customer_id}`, { key: f.key });
    expect(await expectJson(read, 200)).toEqual(customer);
    const listed = await api(`/v2/customers/${created.customer_id}/accounts`, { key: f.key });
    const page = await expectJson<{ data: Account[] }>(listed, 200);
    expect(page.data.map(({ as_of, ...a }) => a)).toEqual(accounts.map(({ as_of, ...a }) => a));
  });

  it("takes the partner's id for the customer, a currency and a credit limit", async () => {
    const f = await seedAccount({ scopes: ["ACCOUNT_READ", "AUTHORIZED_USER_READ"] });
    const created = await newCustomer(f, {
      partner_customer_id: "crm-4411",
      currency: "JPY",
      credit_limit: 300000,
    });
    expect(created).toMatchObject({ partner_customer_id: "crm-4411", authorized_users: [] });
    expect(created.accounts[0]).toMatchObject({ currency: "JPY", credit_limit: 300000 });
    const read = await api(`/v2/customers/${created.customer_id}`, { key: f.key });
    expect(await expectJson(read, 200)).toEqual({
      customer_id: created.customer_id,
      partner_customer_id: "crm-4411",
      authorized_users: [],
    });
  });

  it("answers 400 naming the field, in each version's error shape", async () => {
    const f = await seedAccount();
    for (const version of ALL_VERSIONS) {
      const cases: [unknown, string, string][] = [
        [{ currency: "usd" }, "currency", "currency: must be 3 capital letters (ISO 4217)"],
        [{ credit_limit: -1 }, "credit_limit", "credit_limit: must not be negative"],
        [{ credit_limit: 12.5 }, "credit_limit", "credit_limit"],
        [{ partner_customer_id: "" }, "partner_customer_id", "partner_customer_id must be 1 to"],
        [{ name: "Ava" }, "name", '"name" is not a field of this request'],
      ];
      for (const [body, field, detail] of cases) {
        const res = await api("/v2/simulations/customers", {
          key: f.key,
          method: "POST",
          body,
          version,
        });
        const error = await expectJson<Record<string, unknown>>(res, 400);
        if (versionsWith("useApiErrorEnvelopeForAllErrors").includes(version)) {
          const { error: e } = error as unknown as ErrorBody;
          expect(e.type).toBe("INVALID_REQUEST_ERROR");
          expect(e.param).toBe(field);
          expect(e.details?.[0]).toContain(detail);
        } else {
          expect(error).toMatchObject({
            path: "/v2/simulations/customers",
            error: "Bad Request",
            status: 400,
          });
          expect((error.details as string[])[0]).toContain(detail);
        }
      }
    }
    expect(versionsBefore("useApiErrorEnvelopeForAllErrors")).toContain(OLDEST);
  });

  it("does not exist for a production key: the 404 of an unknown route, before any check", async () => {
    const f = await seedAccount();
    const live = await createKey(f.partnerId, "production", ["ACCOUNT_READ"]);
    const noScope = await createKey(f.partnerId, "production", []);
    for (const [key, what, body] of [
      [live.apiKey, "customers", undefined],
      [live.apiKey, "statements", { customer_id: "x", account_id: "y" }],
      [noScope.apiKey, "customers", { currency: "bad" }],
    ] as const) {
      const res = await simulate({ key }, what, body);
      expect(res.status).toBe(404);
      expect(res.headers.get("x-service-version")).toBe(OLDEST);
      expect(await res.json()).toEqual({
        error: { type: "NOT_FOUND_ERROR", message: `No route POST /v2/simulations/${what}.` },
      });
    }
    // The same answer as a route that never existed.
    const unknown = await api("/v2/simulations/accounts", { key: live.apiKey, method: "POST" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { type: "NOT_FOUND_ERROR", message: "No route POST /v2/simulations/accounts." },
    });
  });

  it("requires ACCOUNT_READ", async () => {
    const f = await seedAccount({ scopes: [] });
    const res = await simulate(f, "customers");
    expect(res.status).toBe(403);
  });

  it("honours the Idempotency-Key: the same request creates one customer", async () => {
    const f = await seedAccount();
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const first = await simulate(f, "customers", { currency: "EUR" }, headers);
    const again = await simulate(f, "customers", { currency: "EUR" }, headers);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    const other = await simulate(f, "customers", { currency: "GBP" }, headers);
    expect(other.status).toBe(422);
    const listed = await expectJson<{ data: unknown[] }>(
      await api("/v2/customers?limit=100", { key: f.key }),
      200,
    );
    // The fixture's customer and the simulated one.
    expect(listed.data).toHaveLength(2);
  });
});

describe("POST /v2/simulations/statements", { timeout: 30_000 }, () => {
  async function sandboxAccount(f: Fixture) {
    const customer = await newCustomer(f);
    return { customer_id: customer.customer_id, account_id: customer.accounts[0]?.account_id };
  }

  it("closes the last calendar month first, with figures that add up", async () => {
    const f = await seedAccount();
    const ids = await sandboxAccount(f);
    const statement = await closeCycle(f, ids);
    expect(statement).toMatchObject({
      ...ids,
      currency: "USD",
      previous_balance: 0,
      overdue_amount: 0,
    });
    expect(statement.pdf).toBeUndefined();
    expectConsistent(statement);
    const now = new Date();
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 1000);
    expect(statement.period_start_date).toBe(start.toISOString());
    expect(statement.period_end_date).toBe(end.toISOString());
    expect(statement.due_date).toBe(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 25)).toISOString(),
    );
    // As the statements list shows it (the list may add the document once rendered).
    const listed = await expectJson<StatementList>(
      await api(statementsPath({ customerId: ids.customer_id, accountId: ids.account_id ?? "" }), {
        key: f.key,
        version: "latest",
      }),
      200,
    );
    const { as_of, pdf, ...shown } = listed.data[0] as Statement;
    const { as_of: _, ...answered } = statement;
    expect(shown).toEqual(answered);
    // The account now stands at the statement's balance.
    const account = await expectJson<Account>(
      await api(`/v2/customers/${ids.customer_id}/accounts/${ids.account_id}`, { key: f.key }),
      200,
    );
    expect(account.current_balance).toBe(statement.statement_balance);
    expect(account.available_credit).toBe(500000 - statement.statement_balance);
  });

  it("chains each cycle to the previous statement's balance, a month later", async () => {
    const f = await seedAccount();
    const ids = await sandboxAccount(f);
    const statements = [];
    for (let i = 0; i < 4; i++) statements.push(await closeCycle(f, ids));
    for (const [i, s] of statements.entries()) {
      expectConsistent(s);
      if (i === 0) continue;
      const before = statements[i - 1] as Statement;
      expect(s.previous_balance).toBe(before.statement_balance);
      const dayAfter = new Date(Date.parse(before.period_end_date as string) + 1000);
      expect(s.period_start_date).toBe(dayAfter.toISOString());
    }
  });

  it("keeps the chain of balances when cycles close at once: a late one answers 409", async () => {
    const f = await seedAccount();
    const ids = await sandboxAccount(f);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => simulate(f, "statements", ids)),
    );
    const created: Statement[] = [];
    for (const res of answers) {
      if (res.status === 409) {
        const body = (await res.json()) as ErrorBody;
        expect(body.error.type).toBe("CONFLICT_ERROR");
        expect(body.error.message).toMatch(/closed meanwhile; send the request again/);
      } else {
        created.push(await expectJson<Statement>(res, 201));
      }
    }
    expect(created.length).toBeGreaterThan(0);
    // Whatever was stored is one chain: each statement follows exactly one other, a month on.
    const listed = await expectJson<StatementList>(
      await api(statementsPath({ customerId: ids.customer_id, accountId: ids.account_id ?? "" }), {
        key: f.key,
        version: "latest",
      }),
      200,
    );
    const chain = [...(listed.data as Statement[])].reverse();
    expect(chain.map((s) => s.statement_id).sort()).toEqual(
      created.map((s) => s.statement_id).sort(),
    );
    for (const [i, s] of chain.entries()) {
      const before = chain[i - 1];
      expect(s.previous_balance).toBe(before ? before.statement_balance : 0);
      if (before) {
        const dayAfter = new Date(Date.parse(before.period_end_date as string) + 1000);
        expect(s.period_start_date).toBe(dayAfter.toISOString());
      }
    }
  });

  it("opens a first cycle a month before the day after the closing date asked for", async () => {
    const f = await seedAccount();
    for (const [end, start] of [
      ["2026-09-30T23:59:59Z", "2026-09-01T00:00:00.000Z"],
      ["2026-09-15T23:59:59Z", "2026-08-16T00:00:00.000Z"],
      ["2026-02-28T23:59:59Z", "2026-02-01T00:00:00.000Z"],
    ]) {
      const statement = await closeCycle(f, { ...(await sandboxAccount(f)), period_end_date: end });
      expect(statement.period_start_date, end).toBe(start);
    }
  });

  it("records exactly the lines asked for, and works out the rest", async () => {
    const f = await seedAccount();
    const ids = await sandboxAccount(f);
    const statement = await closeCycle(f, {
      ...ids,
      period_end_date: "2026-03-31T23:59:59Z",
      purchases: 125000,
      payments: -20000,
      fees: 3900,
    });
    expect(statement).toMatchObject({
      period_start_date: "2026-03-01T00:00:00.000Z",
      period_end_date: "2026-03-31T23:59:59.000Z",
      statement_balance: 108900,
      previous_balance: 0,
      purchases: 125000,
      payments: -20000,
      fees: 3900,
      // 1% of the balance, plus the cycle's fees.
      minimum_due: 1089 + 3900,
      overdue_amount: 0,
    });
    for (const absent of ["credits", "refunds", "interest"]) {
      expect(statement).not.toHaveProperty(absent);
    }
    const next = await closeCycle(f, { ...ids, payments: -108900, minimum_due: 0 });
    expect(next).toMatchObject({ previous_balance: 108900, statement_balance: 0, minimum_due: 0 });
  });

  it("renders the statement and announces it, as a real one", async () => {
    const f = await seedAccount();
    const ids = await sandboxAccount(f);
    const statement = await closeCycle(f, ids);
    const events = await eventually(
      async () =>
        (
          await expectJson<{ data: { type: string; data: { statement: Statement } }[] }>(
            await api("/v2/events?limit=10", { key: f.key }),
            200,
          )
        ).data.filter((e) => e.data.statement.statement_id === statement.statement_id),
      (found) => found.length === 2,
      20_000,
    );
    expect(events.map((e) => e.type).sort()).toEqual([
      "statement.created",
      "statement.pdf_available",
    ]);
  });

  it("answers 404 for another partner's, another product's or a production customer, as for none", async () => {
    const f = await seedAccount();
    const other = await seedAccount();
    const theirs = await sandboxAccount(other);
    const production = { customer: uniqueId("cus"), account: uniqueId("acc") };
    await importData({
      customers: [
        {
          customer_id: production.customer,
          partner_id: f.partnerId,
          environment: "production",
          merchant_key: f.merchantKey,
        },
      ],
      accounts: [{ account_id: production.account, customer_id: production.customer }],
    });
    const never = await simulate(f, "statements", { customer_id: "cus_never", account_id: "a" });
    const neverBody = await expectJson<ErrorBody>(never, 404);
    for (const [customer, account] of [
      [theirs.customer_id, theirs.account_id],
      [production.customer, production.account],
    ]) {
      const res = await simulate(f, "statements", { customer_id: customer, account_id: account });
      const body = await expectJson<ErrorBody>(res, 404);
      expect(JSON.stringify(body).replaceAll(customer as string, "cus_never")).toBe(
        JSON.stringify(neverBody),
      );
    }
    const mine = await sandboxAccount(f);
    const wrong = await simulate(f, "statements", {
      customer_id: mine.customer_id,
      account_id: theirs.account_id,
    });
    expect((await expectJson<Record<string, string>>(wrong, 404)).type).toBe(
      "ACCOUNT_NOT_FOUND_ERROR",
    );
  });

  it("closes a cycle on an imported sandbox account, after its newest statement", async () => {
    const f = await seedAccount({ statements: 2 });
    const statement = await closeCycle(f, { customer_id: f.customerId, account_id: f.accountId });
    // monthlyStatement(…, 2): February 2024, balance 100.02.
    expect(statement).toMatchObject({
      previous_balance: 10002,
      period_start_date: "2024-03-01T00:00:00.000Z",
      period_end_date: "2024-03-31T23:59:59.000Z",
    });
  });

  it("answers 400 naming the field, in each version's error shape", async () => {
    const f = await seedAccount();
    const ids = await sandboxAccount(f);
    await closeCycle(f, { ...ids, period_end_date: "2026-05-31T23:59:59Z" });
    const cases: [unknown, string, string][] = [
      [{ account_id: ids.account_id }, "customer_id", "customer_id is required"],
      [{ ...ids, purchases: -5 }, "purchases", "purchases: must not be negative (a charge)"],
      [{ ...ids, payments: 100 }, "payments", "payments: must not be positive"],
      [{ ...ids, fees: 1.5 }, "fees", "fees"],
      [{ ...ids, period_end_date: "yesterday" }, "period_end_date", "RFC 3339"],
      [
        { ...ids, period_end_date: "2026-05-15T00:00:00Z" },
        "period_end_date",
        "period_end_date must be on or after 2026-06-01T00:00:00.000Z",
      ],
      [
        { ...ids, due_date: "2026-06-01T00:00:00Z" },
        "due_date",
        "due_date must be after period_end_date",
      ],
      [
        { ...ids, purchases: 1000, overdue_amount: 999_999_999_999 },
        "overdue_amount",
        "overdue_amount must be at most the balance owed",
      ],
      [{ ...ids, statement_balance: 5 }, "statement_balance", "is not a field of this request"],
    ];
    for (const version of [OLDEST, bundle.versions[0]?.id as string]) {
      for (const [body, field, detail] of cases) {
        const res = await api("/v2/simulations/statements", {
          key: f.key,
          method: "POST",
          body,
          version,
        });
        const error = await expectJson<Record<string, unknown>>(res, 400);
        const details = versionsWith("useApiErrorEnvelopeForAllErrors").includes(version)
          ? (error as unknown as ErrorBody).error.details
          : (error.details as string[]);
        expect(details?.[0], JSON.stringify(body)).toContain(detail);
        if (versionsWith("useApiErrorEnvelopeForAllErrors").includes(version)) {
          expect((error as unknown as ErrorBody).error.param).toBe(field);
        }
      }
    }
  });

  it("honours the Idempotency-Key: the same request closes one cycle", async () => {
    const f = await seedAccount();
    const ids = await sandboxAccount(f);
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const first = await expectJson<Statement>(await simulate(f, "statements", ids, headers), 201);
    const again = await simulate(f, "statements", ids, headers);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await again.json()) as Statement).toEqual(first);
    const listed = await expectJson<StatementList>(
      await api(statementsPath({ customerId: ids.customer_id, accountId: ids.account_id ?? "" }), {
        key: f.key,
      }),
      200,
    );
    expect(listed.data).toHaveLength(1);
  });
});
