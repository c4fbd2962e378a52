// POST /operator/v1/statements/{statement_id}/restatements (CONTRACT §9): a correction is stored
// and linked to the original both ways in one batch; the original's figures never change; the list
// shows the correction where the original stood, while the original is still retrieved by id;
// the same checks as an import; 409 for an original already restated or hidden; the audit log
// says who restated what; and the events, in every version: `statement.restated` from the version
// that introduced it, `statement.hidden` before it.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import app from "../../src/index";
import { api, type ErrorBody, expectJson, operator } from "../support/api";
import { executionContext } from "../support/app-env";
import { ALL_VERSIONS, versionsBefore, versionsWith } from "../support/bundle-versions";
import { seedTeam } from "../support/dashboard";
import { eventually } from "../support/eventually";
import { StorageProbe } from "../support/faulty-storage";
import {
  type Fixture,
  importData,
  monthlyStatement,
  seedAccount,
  statementsPath,
  uniqueId,
} from "../support/fixtures";
import type { Json } from "../support/json";
import { allLineItems, statementPath, statementWithLineItems } from "../support/line-items";
import { countOnEveryShard, SHARDS, shardDatabase } from "../support/shards";
import { operatorRequest } from "../support/storage-fault-scenarios";
import { RECEIVER, type Receiver, startReceiver } from "../support/webhook-receiver";

const RESTATED = "announceRestatementsAsStatementRestated";

const restate = (originalId: string, correction: unknown) =>
  operator("POST", `/statements/${originalId}/restatements`, correction);

/** A correction of month `month`'s statement: its own id, more purchases, figures that add up. */
function correctionOf(f: Fixture, month: number, purchases = 7) {
  return statementWithLineItems(f.accountId, month, {
    id: `${f.accountId}_fix_${uniqueId("c")}`,
    purchases,
  });
}

async function retrieve(f: Fixture, statementId: string, version?: string): Promise<Json> {
  return expectJson<Json>(
    await api(statementPath(f, statementId), { key: f.key, ...(version ? { version } : {}) }),
    200,
  );
}

const listedIds = async (f: Fixture) =>
  (
    await expectJson<{ data: { statement_id: string }[] }>(
      await api(statementsPath(f), { key: f.key }),
      200,
    )
  ).data.map((s) => s.statement_id);

/** A statement as read, without the values of the moment (as_of, the link). */
const figures = ({ as_of: _a, pdf_url: _p, pdf: _o, restated_by: _r, ...rest }: Json) => rest;

describe("restating a statement", () => {
  it("stores the correction in the original's place; the original keeps its figures and is still retrieved", async () => {
    const f = await seedAccount({ statements: 3 });
    const original = statementWithLineItems(f.accountId, 4);
    await importData({ statements: [original] });
    const before = await retrieve(f, original.statement_id);
    const listedBefore = await listedIds(f);
    const correction = correctionOf(f, 4);

    const res = await restate(original.statement_id, correction);
    expect(await expectJson<Json>(res, 201)).toEqual({
      statement_id: correction.statement_id,
      restates: original.statement_id,
    });

    // The list: the correction where the original stood.
    expect(await listedIds(f)).toEqual(
      listedBefore.map((id) => (id === original.statement_id ? correction.statement_id : id)),
    );
    for (const version of ALL_VERSIONS) {
      const after = await retrieve(f, original.statement_id, version);
      expect(after.restated_by).toBe(correction.statement_id);
      const fixed = await retrieve(f, correction.statement_id, version);
      expect(fixed.restates).toBe(original.statement_id);
      expect(fixed.purchases).toBe(correction.purchases);
    }
    expect(figures(await retrieve(f, original.statement_id))).toEqual(figures(before));
    // Each keeps its own line items.
    expect((await allLineItems(f, original.statement_id)).items).toHaveLength(9);
    expect((await allLineItems(f, correction.statement_id)).items).toHaveLength(11);
  });

  it("restates a statement without line items, and a correction in turn", async () => {
    const f = await seedAccount({ statements: 2 });
    const first = `${f.accountId}_st_002`;
    const second = { ...monthlyStatement(f.accountId, 2, `${f.accountId}_fix_1`), fees: 75 };
    expect((await restate(first, second)).status).toBe(201);
    const third = { ...second, statement_id: `${f.accountId}_fix_2`, fees: 60 };
    expect((await restate(second.statement_id, third)).status).toBe(201);
    expect(await listedIds(f)).toEqual([third.statement_id, `${f.accountId}_st_001`]);
    expect((await retrieve(f, second.statement_id)).restated_by).toBe(third.statement_id);
    expect((await retrieve(f, second.statement_id)).restates).toBe(first);
  });

  it("answers a repeated request as the first, and refuses a second or a hidden restatement with 409", async () => {
    const f = await seedAccount({ statements: 2 });
    const originalId = `${f.accountId}_st_002`;
    const correction = { ...monthlyStatement(f.accountId, 2, `${f.accountId}_fix`), fees: 1 };
    expect((await restate(originalId, correction)).status).toBe(201);
    // The same request again (a retry): the same answer, nothing more written.
    const again = await restate(originalId, correction);
    expect(await expectJson<Json>(again, 200)).toEqual({
      statement_id: correction.statement_id,
      restates: originalId,
    });
    const another = { ...correction, statement_id: `${f.accountId}_fix_b` };
    const twice = await expectJson<ErrorBody>(await restate(originalId, another), 409);
    expect(twice.error.message).toContain(`already restated by "${correction.statement_id}"`);
    // The same id with other figures is not a retry.
    const changed = await expectJson<ErrorBody>(
      await restate(originalId, { ...correction, fees: 2 }),
      409,
    );
    expect(changed.error.message).toContain("already names a statement");

    const hiddenId = `${f.accountId}_st_001`;
    expect((await operator("POST", `/statements/${hiddenId}/hide`)).status).toBe(204);
    const hidden = await expectJson<ErrorBody>(
      await restate(hiddenId, { ...monthlyStatement(f.accountId, 1, `${f.accountId}_fix_h`) }),
      409,
    );
    expect(hidden.error.message).toContain("hidden");
    expect(
      await countOnEveryShard(
        "SELECT count(*) AS n FROM statements WHERE statement_id IN (?, ?)",
        another.statement_id,
        `${f.accountId}_fix_h`,
      ),
    ).toBe(0);
  });

  it("refuses another account, another cycle, a taken or the same id, and an unknown original", async () => {
    const f = await seedAccount({ statements: 2 });
    const other = await seedAccount({ statements: 1 });
    const originalId = `${f.accountId}_st_002`;
    const base = monthlyStatement(f.accountId, 2, `${f.accountId}_fix`);
    const refused = async (body: unknown, status: number, fragment: string) => {
      const error = await expectJson<ErrorBody>(await restate(originalId, body), status);
      expect(JSON.stringify(error.error)).toContain(fragment);
    };
    await refused(
      { ...base, account_id: other.accountId },
      400,
      "account_id: must be the restated statement's",
    );
    await refused(
      { ...base, period_end_date: "2024-02-28T23:59:59Z" },
      400,
      "period_end_date: must be the restated statement's",
    );
    const { period_start_date: _s, ...noStart } = base;
    await refused(noStart, 400, "period_start_date: must be the restated statement's");
    await refused({ ...base, statement_id: originalId }, 400, "statement_id: must be a new id");
    await refused(
      { ...base, statement_id: `${f.accountId}_st_001` },
      409,
      "already names a statement",
    );
    await refused(
      { ...base, statement_id: `${other.accountId}_st_001` },
      409,
      "already names a statement",
    );
    const unknown = await restate("st_never_stored", base);
    expect((await expectJson<ErrorBody>(unknown, 404)).error.type).toBe("NOT_FOUND_ERROR");
    expect(await listedIds(f)).toEqual([originalId, `${f.accountId}_st_001`]);
  });

  it("checks the correction as an import checks a statement, storing nothing refused", async () => {
    const f = await seedAccount({ statements: 1 });
    const original = statementWithLineItems(f.accountId, 2);
    await importData({ statements: [original] });
    const correction = correctionOf(f, 2);
    const wrong = {
      ...correction,
      line_items: (correction.line_items ?? []).map((i) =>
        i.type === "FEE" ? { ...i, amount: 49 } : i,
      ),
    };
    const body = await expectJson<ErrorBody>(await restate(original.statement_id, wrong), 400);
    expect(body.error.details).toEqual(
      expect.arrayContaining([
        `statement ("${correction.statement_id}").fees: is 50 but its FEE line items sum to 49: ` +
          "a difference of 1",
      ]),
    );
    const negative = await expectJson<ErrorBody>(
      await restate(original.statement_id, { ...correction, purchases: -1 }),
      400,
    );
    expect(negative.error.details?.[0]).toBe(
      `statement ("${correction.statement_id}").purchases: must not be negative (a charge)`,
    );
    const future = await expectJson<ErrorBody>(
      await restate(original.statement_id, { ...correction, line_items: "none" }),
      400,
    );
    expect(future.error.details?.[0]).toContain(".line_items: must be an array");
    for (const table of ["statements", "statement_line_items"]) {
      expect(
        await countOnEveryShard(
          `SELECT count(*) AS n FROM ${table} WHERE statement_id = ?`,
          correction.statement_id,
        ),
      ).toBe(0);
    }
    expect((await retrieve(f, original.statement_id)).restated_by).toBeUndefined();
  });

  it("says who restated what in the operator's audit and the dashboard's", async () => {
    const team = await seedTeam();
    const customerId = uniqueId("cus");
    const accountId = uniqueId("acc");
    await importData({
      customers: [
        {
          customer_id: customerId,
          partner_id: team.partnerId,
          environment: "production",
          merchant_key: team.merchantKey as string,
        },
      ],
      accounts: [{ account_id: accountId, customer_id: customerId }],
      statements: [monthlyStatement(accountId, 1)],
    });
    const originalId = `${accountId}_st_001`;
    const correctionId = `${accountId}_fix`;
    const res = await operator(
      "POST",
      `/statements/${originalId}/restatements`,
      { ...monthlyStatement(accountId, 1, correctionId), fees: 0 },
      { "cf-connecting-ip": "203.0.113.9" },
    );
    expect(res.status).toBe(201);
    const audit = await expectJson<{ data: Json[] }>(
      await operator("GET", `/partners/${team.partnerId}/audit?limit=5`),
      200,
    );
    expect(audit.data[0]).toMatchObject({
      action: "statement.restated",
      actor: { type: "operator", label: "operator" },
      environment: "production",
      target: originalId,
      details: { restated_by: correctionId, account_id: accountId },
      ip: "203.0.113.9",
    });
    const page = await (await team.admin.get("/dashboard/audit")).text();
    expect(page).toContain("Restated a statement");
    expect(page).toContain(originalId);
    expect(page).toContain(correctionId);
  });
});

describe("a restatement's one batch", () => {
  /** Sends the request through the app with every D1 binding behind `probe`. */
  async function send(request: Request, probe: StorageProbe): Promise<Response> {
    const faulty: Record<string, unknown> = { ...env, DIRECTORY: probe.db(env.DIRECTORY) };
    for (const shard of SHARDS) faulty[`DB_${shard}`] = probe.db(shardDatabase(shard));
    const ctx = executionContext();
    const res = await app.fetch(request, faulty, ctx);
    await ctx.settled();
    return res;
  }

  const request = (originalId: string, correction: unknown) =>
    operatorRequest(`/statements/${originalId}/restatements`, {
      method: "POST",
      body: JSON.stringify(correction),
    });

  /** What a restatement may change, straight from storage. */
  const state = async (f: Fixture, originalId: string, correctionId: string) => ({
    original: await countOnEveryShard(
      "SELECT count(*) AS n FROM statements WHERE statement_id = ? AND restated_by IS NULL",
      originalId,
    ),
    correction: await countOnEveryShard(
      "SELECT count(*) AS n FROM statements WHERE statement_id = ?",
      correctionId,
    ),
    items: await countOnEveryShard(
      "SELECT count(*) AS n FROM statement_line_items WHERE statement_id = ?",
      correctionId,
    ),
    events: await countOnEveryShard(
      "SELECT count(*) AS n FROM events WHERE statement_id IN (?, ?)",
      originalId,
      correctionId,
    ),
    audit: await countOnEveryShard(
      "SELECT count(*) AS n FROM audit_events WHERE partner_id = ? AND action = 'statement.restated'",
      f.partnerId,
    ),
    listed: await listedIds(f),
  });

  it("writes the correction, its line items, both events, the link and the audit row in one batch", async () => {
    const f = await seedAccount({ statements: 1 });
    const original = statementWithLineItems(f.accountId, 2);
    await importData({ statements: [original] });
    const correction = correctionOf(f, 2, 600);
    const probe = new StorageProbe();
    const res = await send(request(original.statement_id, correction), probe);
    expect(res.status, await res.text()).toBe(201);
    const writes = probe.writes();
    expect(writes).toHaveLength(1);
    expect(writes[0]?.op).toBe("batch");
    expect(await state(f, original.statement_id, correction.statement_id)).toEqual({
      original: 0,
      correction: 1,
      items: 604,
      events: 3,
      audit: 1,
      listed: [correction.statement_id, `${f.accountId}_st_001`],
    });
  });

  it("leaves both statements as they were when storage fails in the middle of the batch", async () => {
    const f = await seedAccount({ statements: 1 });
    const original = statementWithLineItems(f.accountId, 2);
    await importData({ statements: [original] });
    const correction = correctionOf(f, 2, 600);
    const before = await state(f, original.statement_id, correction.statement_id);
    const originalBefore = await retrieve(f, original.statement_id);
    // Count the calls on a restatement like it, then fail its batch: midway (half of it run, then
    // a failing statement), or whole.
    const counted = new StorageProbe();
    const dry = await freshRestatement();
    expect((await send(request(dry.originalId, dry.correction), counted)).status).toBe(201);
    const batchAt = counted.calls.findIndex((c) => c.op === "batch" && c.sql.length > 3) + 1;
    expect(batchAt).toBeGreaterThan(0);
    for (const mode of ["mid-batch", "error", "timeout"] as const) {
      const failed = await send(
        request(original.statement_id, correction),
        new StorageProbe(batchAt, mode),
      );
      expect(failed.status, mode).toBe(503);
      expect((await failed.json()) as Json).toMatchObject({
        error: { type: "SERVICE_UNAVAILABLE_ERROR" },
      });
      expect(await state(f, original.statement_id, correction.statement_id), mode).toEqual(before);
      expect(figures(await retrieve(f, original.statement_id))).toEqual(figures(originalBefore));
    }
    // And then it goes through.
    expect(
      (await send(request(original.statement_id, correction), new StorageProbe())).status,
    ).toBe(201);
  });

  /** A stored statement with line items, and a correction of it, of a new account. */
  async function freshRestatement() {
    const g = await seedAccount({ statements: 1 });
    const original = statementWithLineItems(g.accountId, 2);
    await importData({ statements: [original] });
    return { originalId: original.statement_id, correction: correctionOf(g, 2, 600) };
  }
});

describe("a restatement's events", () => {
  let receiver: Receiver;
  beforeAll(() => {
    receiver = startReceiver();
  });
  afterAll(() => receiver.restore());

  const NEW = versionsWith(RESTATED);
  const OLD = versionsBefore(RESTATED);

  it("is statement.restated for the original from the version that introduced it, statement.hidden before", async () => {
    expect(NEW.length).toBeGreaterThan(0);
    expect(OLD.length).toBeGreaterThan(0);
    const f = await seedAccount({ statements: 1 });
    const originalId = `${f.accountId}_st_001`;
    const correction = { ...monthlyStatement(f.accountId, 1, `${f.accountId}_fix`), fees: 10 };
    expect((await restate(originalId, correction)).status).toBe(201);
    for (const version of ALL_VERSIONS) {
      const page = await expectJson<{ data: Json[] }>(
        await api("/v2/events", { key: f.key, version }),
        200,
      );
      const of = (id: string) =>
        page.data.filter((e) => e.data.statement.statement_id === id).map((e) => e.type);
      const gone = NEW.includes(version) ? "statement.restated" : "statement.hidden";
      expect(of(originalId).sort(), version).toEqual([gone, "statement.created"].sort());
      expect(of(correction.statement_id), version).toEqual(["statement.created"]);
      const event = page.data.find((e) => e.type === gone);
      // The original is read in full, with the link to its correction, in every version.
      expect(event.data.statement.restated_by).toBe(correction.statement_id);
      expect(event.data.statement.fees).toBe(50);
      const one = await expectJson<Json>(
        await api(`/v2/events/${event.event_id}`, { key: f.key, version }),
        200,
      );
      expect(one.type).toBe(gone);
    }
  });

  it("reaches each webhook endpoint in the version it is pinned to", async () => {
    const f = await seedAccount({ statements: 1 });
    const pinned = new Map<string, string>();
    for (const version of ALL_VERSIONS) {
      const path = `/ok/${uniqueId("restated")}`;
      const res = await api("/v2/webhook_endpoints", {
        key: f.key,
        method: "POST",
        body: { url: `${RECEIVER}${path}`, api_version: version },
      });
      expect(res.status).toBe(201);
      pinned.set(version, path);
    }
    const originalId = `${f.accountId}_st_001`;
    const correctionId = `${f.accountId}_fix`;
    expect(
      (await restate(originalId, { ...monthlyStatement(f.accountId, 1, correctionId), fees: 5 }))
        .status,
    ).toBe(201);
    for (const [version, path] of pinned) {
      const deliveries = await receiver.waitFor(path, 2);
      const events = deliveries.map((d) => JSON.parse(d.body) as Json);
      const byStatement = new Map(events.map((e) => [e.data.statement.statement_id, e.type]));
      expect(byStatement.get(originalId), version).toBe(
        NEW.includes(version) ? "statement.restated" : "statement.hidden",
      );
      expect(byStatement.get(correctionId), version).toBe("statement.created");
    }
  });

  it("renders the correction's document as an import's, then announces it", async () => {
    const f = await seedAccount({ statements: 1, documents: "rendered" });
    const originalId = `${f.accountId}_st_001`;
    const correction = statementWithLineItems(f.accountId, 1, { id: `${f.accountId}_fix` });
    expect((await restate(originalId, correction)).status).toBe(201);
    const fixed = await eventually(
      () => retrieve(f, correction.statement_id, "latest"),
      (s) => s.pdf !== undefined,
      20_000,
    );
    expect(fixed.pdf.url).toContain(`/files/statements/${correction.statement_id}/pdf`);
    const types = await eventually(
      async () =>
        (
          await expectJson<{ data: Json[] }>(await api("/v2/events?limit=100", { key: f.key }), 200)
        ).data
          .filter((e) => e.data.statement.statement_id === correction.statement_id)
          .map((e) => e.type)
          .sort(),
      (t) => t.includes("statement.pdf_available"),
      20_000,
    );
    expect(types).toEqual(["statement.created", "statement.pdf_available"]);
  });
});
