// What an import may not change over HTTP: a closed statement's figures and an object's owner,
// also when two imports run at once.
import { describe, expect, it } from "vitest";
import { api, type ErrorBody, expectJson, operator } from "../support/api";
import {
  type Fixture,
  importData,
  monthlyStatement,
  type StatementInput,
  seedAccount,
  uniqueId,
} from "../support/fixtures";
import {
  expectConflict,
  listStatements,
  newPartner,
  postImport,
  servedFigures,
} from "../support/imports";
import { partnerDatabase, shardOf } from "../support/shards";

describe("closed statements never change", () => {
  it("treats re-importing identical statements as a no-op", async () => {
    const f = await seedAccount({ statements: 3 });
    const before = await servedFigures(f);
    const again = [1, 2, 3].map((m) => monthlyStatement(f.accountId, m));
    expect(await expectJson(await postImport({ statements: again }), 200)).toEqual({
      imported: { partners: 0, customers: 0, accounts: 0, statements: 3, payment_methods: 0 },
    });
    expect(await servedFigures(f)).toEqual(before);
  });

  it("treats the same instant written with another offset as identical", async () => {
    const f = await seedAccount({ statements: 1 });
    const original = monthlyStatement(f.accountId, 1);
    const same = { ...original, period_end_date: "2024-02-01T01:59:59+02:00" };
    expect(original.period_end_date).toBe("2024-01-31T23:59:59.000Z");
    expect((await postImport({ statements: [same] })).status).toBe(200);
  });

  it("answers 409 for any change to a stored statement and keeps the stored figures", async () => {
    const f = await seedAccount({ statements: 1 });
    const before = await servedFigures(f);
    const original = monthlyStatement(f.accountId, 1);
    const { fees: _fees, ...withoutFees } = original;
    const other = await seedAccount();
    const changes: StatementInput[] = [
      { ...original, statement_balance: (original.statement_balance ?? 0) + 1 },
      { ...original, purchases: 4001 },
      { ...original, payments: -3001 },
      { ...original, overdue_amount: 1 },
      { ...original, credits: 0 },
      withoutFees,
      { ...original, currency: "EUR" },
      { ...original, period_end_date: "2024-01-31T23:59:58Z" },
      { ...original, due_date: "2024-02-26T00:00:00Z" },
      { ...original, account_id: other.accountId },
    ];
    for (const changed of changes) {
      await expectConflict(
        { statements: [changed] },
        `statements[0] ("${original.statement_id}"): a closed statement's figures never change`,
      );
    }
    expect(await servedFigures(f)).toEqual(before);
  });

  it("refuses an UPDATE of a statement's figures in the database itself", async () => {
    const f = await seedAccount({ statements: 1 });
    const id = `${f.accountId}_st_001`;
    const db = await partnerDatabase(f.partnerId);
    const updates = [
      "UPDATE statements SET purchases = purchases + 1 WHERE statement_id = ?",
      "UPDATE statements SET statement_balance = NULL WHERE statement_id = ?",
      "UPDATE statements SET period_end_date = '2030-01-01T00:00:00.000Z' WHERE statement_id = ?",
      "UPDATE statements SET account_id = 'elsewhere' WHERE statement_id = ?",
      "UPDATE statements SET statement_id = statement_id || 'x' WHERE statement_id = ?",
    ];
    for (const sql of updates) {
      await expect(db.prepare(sql).bind(id).run(), sql).rejects.toThrow(
        /statement_figures_immutable/,
      );
    }
    const row = await db
      .prepare("SELECT purchases FROM statements WHERE statement_id = ?")
      .bind(id)
      .first<{ purchases: number }>();
    expect(row?.purchases).toBe(4000);
    // Servicing columns stay writable: that is how PDFs are attached and statements hidden.
    const servicing = await db
      .prepare("UPDATE statements SET pdf_key = NULL, hidden_at = NULL WHERE statement_id = ?")
      .bind(id)
      .run();
    expect(servicing.success).toBe(true);
  });
});

describe("ownership never moves", () => {
  it("answers 409 when a customer would move partner, environment or product", async () => {
    const f = await seedAccount();
    const other = await seedAccount();
    const secondProduct = uniqueId("mk");
    await importData({
      partners: [
        {
          partner_id: f.partnerId,
          name: "P",
          products: [{ merchant_key: secondProduct, name: "Gold", documents: "uploaded" }],
        },
      ],
    });
    const customer = {
      customer_id: f.customerId,
      partner_id: f.partnerId,
      environment: "sandbox",
      merchant_key: f.merchantKey,
    };
    const moves = [
      { ...customer, partner_id: other.partnerId, merchant_key: other.merchantKey },
      { ...customer, environment: "production" },
      { ...customer, merchant_key: secondProduct },
    ];
    for (const moved of moves) {
      await expectConflict(
        { customers: [moved] },
        `customers[0] ("${f.customerId}"): ` +
          "a customer's partner, environment and product never change",
      );
    }
    const still = await api(`/v2/customers/${f.customerId}`, {
      key: f.key,
      merchantKey: f.merchantKey,
    });
    expect(still.status).toBe(200);
  });

  it("answers 409 when an account would move to another customer", async () => {
    const f = await seedAccount({ statements: 1 });
    const other = await seedAccount();
    await expectConflict(
      { accounts: [{ account_id: f.accountId, customer_id: other.customerId }] },
      `accounts[0] ("${f.accountId}").customer_id: an account never moves to another customer`,
    );
    expect((await listStatements(f)).data).toHaveLength(1);
  });

  it("answers 409 when a merchant key already belongs to another partner", async () => {
    const f = await seedAccount();
    const partnerId = uniqueId("partner");
    await expectConflict(
      { partners: [newPartner(partnerId, f.merchantKey)] },
      `partners[0] ("${partnerId}").products[0].merchant_key: ` +
        `"${f.merchantKey}" belongs to another partner`,
    );
    const key = await operator("POST", `/partners/${partnerId}/keys`, {
      environment: "sandbox",
      scopes: [],
    });
    expect(key.status).toBe(404);
    expect((await api(`/v2/customers/${f.customerId}`, { key: f.key })).status).toBe(200);
  });
});

describe("concurrent imports", () => {
  /**
   * Two partners on the same shard: concurrent imports meet in its one database, whose guards let
   * one win. (Across shards an id is checked before the batch; see test/operator/shards.test.ts.)
   */
  async function partnersOnOneShard(): Promise<readonly [Fixture, Fixture]> {
    const first = await seedAccount();
    return [first, await seedAccount({ shard: await shardOf(first.partnerId) })];
  }

  /** Sends two imports at once; returns them as [winner, loser] after checking 200 and 409. */
  async function race<T>(first: T, second: T, payload: (side: T) => unknown): Promise<[T, T]> {
    const [a, b] = await Promise.all([postImport(payload(first)), postImport(payload(second))]);
    const statuses = [a.status, b.status];
    const loser = a.status === 200 ? b : a;
    expect(statuses.sort(), await loser.clone().text()).toEqual([200, 409]);
    expect(((await loser.json()) as ErrorBody).error.type).toBe("CONFLICT_ERROR");
    return a.status === 200 ? [first, second] : [second, first];
  }

  it("keeps the figures of the one import that stored a new statement first", async () => {
    const f = await seedAccount();
    for (let round = 0; round < 3; round++) {
      const id = uniqueId("st");
      const [winner] = await race(1, 2, (purchases) => ({
        statements: [{ ...monthlyStatement(f.accountId, 1, id), purchases }],
      }));
      const list = await listStatements(f);
      expect(list.data.find((s) => s.statement_id === id)?.purchases).toBe(winner);
    }
  });

  it("gives a new customer to exactly one of two partners claiming it at once", async () => {
    const parties = await partnersOnOneShard();
    for (let round = 0; round < 3; round++) {
      const customerId = uniqueId("cus");
      const [winner, loser] = await race(parties[0], parties[1], (p) => ({
        customers: [
          {
            customer_id: customerId,
            partner_id: p.partnerId,
            environment: "sandbox",
            merchant_key: p.merchantKey,
          },
        ],
        accounts: [{ account_id: `${customerId}_${p.partnerId}`, customer_id: customerId }],
      }));
      const accounts = await expectJson<{ data: { account_id: string }[] }>(
        await api(`/v2/customers/${customerId}/accounts`, { key: winner.key }),
        200,
      );
      expect(accounts.data.map((a) => a.account_id)).toEqual([`${customerId}_${winner.partnerId}`]);
      const hidden = await api(`/v2/customers/${customerId}/accounts`, { key: loser.key });
      expect(hidden.status).toBe(404);
    }
  });

  it("places a new account under exactly one of two customers at once", async () => {
    const parties = await partnersOnOneShard();
    for (let round = 0; round < 3; round++) {
      const accountId = uniqueId("acc");
      const [winner, loser] = await race(parties[0], parties[1], (p) => ({
        accounts: [{ account_id: accountId, customer_id: p.customerId, status: p.partnerId }],
      }));
      const path = (p: Fixture) => `/v2/customers/${p.customerId}/accounts/${accountId}`;
      const account = await expectJson(await api(path(winner), { key: winner.key }), 200);
      expect(account.status).toBe(winner.partnerId);
      expect((await api(path(loser), { key: loser.key })).status).toBe(404);
    }
  });

  it("gives a new merchant key to exactly one of two partners at once", async () => {
    const parties = await partnersOnOneShard();
    const merchantKey = uniqueId("mk");
    const [winner, loser] = await race(parties[0], parties[1], (p) => ({
      partners: [
        {
          partner_id: p.partnerId,
          name: "P",
          products: [{ merchant_key: merchantKey, name: "C", documents: "uploaded" }],
        },
      ],
    }));
    const chosen = await api(`/v2/customers/${winner.customerId}`, {
      key: winner.key,
      merchantKey: winner.merchantKey,
    });
    expect(chosen.status).toBe(200);
    // The loser still has a single product, so it needs no header at all.
    expect((await api(`/v2/customers/${loser.customerId}`, { key: loser.key })).status).toBe(200);
    const foreign = await api(`/v2/customers/${loser.customerId}`, { key: loser.key, merchantKey });
    expect(foreign.status).toBe(400);
  });
});
