// /v2/transaction_intents: created REQUIRES_CONFIRMATION, moved only along the allowed transitions
// (decided by the write, so of two racing moves only one passes), the customer's list with its
// status filter, and the body rules every create shares.
import { describe, expect, it } from "vitest";
import { api, type ErrorBody, expectJson } from "../support/api";
import { ALL_VERSIONS } from "../support/bundle-versions";
import { storeCard } from "../support/card-rows";
import { type Fixture, seedAccount, uniqueId } from "../support/fixtures";

const SCOPES = ["TRANSACTION_INTENT_READ", "TRANSACTION_INTENT_WRITE"];

interface Intent {
  intent_id: string;
  customer_id: string;
  payment_method_id?: string;
  amount: number;
  currency: string;
  status: string;
  metadata: Record<string, string>;
  partner_transaction_id?: string;
}

function post(f: Fixture, path: string, body: unknown, headers: Record<string, string> = {}) {
  return api(path, { key: f.key, method: "POST", body, version: "latest", headers });
}

async function newIntent(f: Fixture, extra: Record<string, unknown> = {}): Promise<Intent> {
  const body = { customer_id: f.customerId, amount: 4200, currency: "USD", ...extra };
  return expectJson<Intent>(await post(f, "/v2/transaction_intents", body), 201);
}

const update = (f: Fixture, id: string, body: unknown) =>
  post(f, `/v2/transaction_intents/${id}`, body);

describe("transaction intents", () => {
  it("creates one REQUIRES_CONFIRMATION and retrieves it", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const card = await storeCard(f);
    const intent = await newIntent(f, {
      payment_method_id: card,
      expected_date: "2026-12-24",
      merchant: { name: "Example Shop" },
      metadata: { basket: "b-1" },
    });
    expect(intent).toMatchObject({
      status: "REQUIRES_CONFIRMATION",
      amount: 4200,
      payment_method_id: card,
      metadata: { basket: "b-1" },
    });
    const read = await api(`/v2/transaction_intents/${intent.intent_id}`, {
      key: f.key,
      version: "latest",
    });
    expect(await expectJson<Intent>(read, 200)).toEqual(intent);
  });

  it.each([
    ["an unknown field", { colour: "red" }, "colour"],
    ["an amount of zero", { amount: 0 }, "amount"],
    ["a date that does not exist", { expected_date: "2026-02-30" }, "expected_date"],
    [
      "21 metadata keys",
      { metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"])) },
      "metadata",
    ],
    [
      "a metadata value over 500 characters",
      { metadata: { note: "x".repeat(501) } },
      "metadata.note",
    ],
    ["a metadata value that is not a string", { metadata: { n: 1 } }, "metadata.n"],
  ])("refuses %s with a 400 naming it", async (_, extra, param) => {
    const f = await seedAccount({ scopes: SCOPES });
    const body = { customer_id: f.customerId, amount: 1, currency: "USD", ...extra };
    const res = await post(f, "/v2/transaction_intents", body);
    expect((await expectJson<ErrorBody>(res, 400)).error.param).toBe(param);
  });

  it("takes 20 metadata keys of 500 characters", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const metadata = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`k${i}`, "x".repeat(500)]),
    );
    expect((await newIntent(f, { metadata })).metadata).toEqual(metadata);
  });

  it("answers 404 for another's customer and 400 for a card not the customer's", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const other = await seedAccount({ scopes: SCOPES });
    const res = await post(f, "/v2/transaction_intents", {
      customer_id: other.customerId,
      amount: 1,
      currency: "USD",
    });
    expect((await expectJson<ErrorBody>(res, 404)).error.type).toBe("CUSTOMER_NOT_FOUND_ERROR");
    const card = await storeCard(other);
    const wrong = await post(f, "/v2/transaction_intents", {
      customer_id: f.customerId,
      amount: 1,
      currency: "USD",
      payment_method_id: card,
    });
    expect((await expectJson<ErrorBody>(wrong, 400)).error.param).toBe("payment_method_id");
  });

  it("moves REQUIRES_CONFIRMATION → CONFIRMED → CANCELED and refuses every other move with 409", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const intent = await newIntent(f);
    const changed = await expectJson<Intent>(
      await update(f, intent.intent_id, { amount: 4000, partner_transaction_id: "pt-1" }),
      200,
    );
    expect(changed).toMatchObject({
      amount: 4000,
      partner_transaction_id: "pt-1",
      status: "REQUIRES_CONFIRMATION",
    });
    expect(
      (await expectJson<Intent>(await update(f, intent.intent_id, { status: "CONFIRMED" }), 200))
        .status,
    ).toBe("CONFIRMED");
    const amount = await update(f, intent.intent_id, { amount: 1 });
    expect((await expectJson<ErrorBody>(amount, 409)).error).toMatchObject({
      type: "CONFLICT_ERROR",
      param: "amount",
    });
    const again = await update(f, intent.intent_id, { status: "CONFIRMED" });
    expect((await expectJson<ErrorBody>(again, 409)).error.param).toBe("status");
    expect(
      (await expectJson<Intent>(await update(f, intent.intent_id, { status: "CANCELED" }), 200))
        .status,
    ).toBe("CANCELED");
    const revive = await update(f, intent.intent_id, { status: "CONFIRMED" });
    expect((await expectJson<ErrorBody>(revive, 409)).error.type).toBe("CONFLICT_ERROR");
    const back = await update(f, intent.intent_id, { status: "REQUIRES_CONFIRMATION" });
    expect((await expectJson<ErrorBody>(back, 400)).error.param).toBe("status");
  });

  it("lets exactly one of two racing confirmations pass", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    for (let round = 0; round < 3; round += 1) {
      const intent = await newIntent(f);
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => update(f, intent.intent_id, { status: "CONFIRMED" })),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    }
  });

  it("replays an update for the same Idempotency-Key instead of refusing the repeat", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const intent = await newIntent(f);
    const headers = { "Idempotency-Key": uniqueId("idem") };
    const path = `/v2/transaction_intents/${intent.intent_id}`;
    const first = await expectJson<Intent>(
      await post(f, path, { status: "CONFIRMED" }, headers),
      200,
    );
    const replay = await post(f, path, { status: "CONFIRMED" }, headers);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await expectJson<Intent>(replay, 200)).toEqual(first);
  });

  it("lists the customer's intents newest first, by status, and 404 for another's customer", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const a = await newIntent(f);
    const b = await newIntent(f);
    await expectJson(await update(f, a.intent_id, { status: "CANCELED" }), 200);
    const read = async (query: string, customer = f.customerId) =>
      api(`/v2/customers/${customer}/transaction_intents${query}`, {
        key: f.key,
        version: "latest",
      });
    const ids = async (query: string) =>
      (await expectJson<{ data: Intent[] }>(await read(query), 200)).data.map((i) => i.intent_id);
    expect(await ids("")).toEqual([b.intent_id, a.intent_id]);
    expect(await ids("?status=CANCELED")).toEqual([a.intent_id]);
    expect(await ids("?status=REQUIRES_CONFIRMATION")).toEqual([b.intent_id]);
    expect(await ids(`?starting_after=${b.intent_id}`)).toEqual([a.intent_id]);
    expect(await ids(`?status=CANCELED&starting_after=${b.intent_id}`)).toEqual([a.intent_id]);
    expect(await ids(`?status=REQUIRES_CONFIRMATION&starting_after=${b.intent_id}`)).toEqual([]);
    const limited = await expectJson<{ data: Intent[]; has_more: boolean }>(
      await read("?limit=1"),
      200,
    );
    expect([limited.data.map((i) => i.intent_id), limited.has_more]).toEqual([[b.intent_id], true]);
    expect((await expectJson<ErrorBody>(await read("?status=DONE"), 400)).error.param).toBe(
      "status",
    );
    const other = await seedAccount({ scopes: SCOPES });
    for (const customer of [other.customerId, uniqueId("cus")]) {
      for (const query of ["", `?starting_after=${b.intent_id}`, "?status=CANCELED"]) {
        const refused = await expectJson<ErrorBody>(await read(query, customer), 404);
        expect(refused.error.type).toBe("CUSTOMER_NOT_FOUND_ERROR");
      }
    }
    // The scope is checked before the customer: a key without it learns nothing of either.
    const unscoped = await seedAccount({ scopes: [] });
    const forbidden = await api(`/v2/customers/${f.customerId}/transaction_intents`, {
      key: unscoped.key,
      version: "latest",
    });
    expect(forbidden.status).toBe(403);
  });

  it.each(ALL_VERSIONS)("answers a missing intent in %s's shape", async (version) => {
    const f = await seedAccount({ scopes: SCOPES });
    const res = await api("/v2/transaction_intents/ti_nothing", { key: f.key, version });
    const body = await expectJson<Record<string, unknown>>(res, 404);
    const error = version === "latest" ? (body as unknown as ErrorBody).error : body;
    expect(error).toMatchObject({ type: "TRANSACTION_INTENT_NOT_FOUND_ERROR", param: "intent_id" });
  });

  it("shows nothing of another partner's intents", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const other = await seedAccount({ scopes: SCOPES });
    const theirs = await newIntent(other);
    const res = await update(f, theirs.intent_id, { status: "CANCELED" });
    expect((await expectJson<ErrorBody>(res, 404)).error.type).toBe(
      "TRANSACTION_INTENT_NOT_FOUND_ERROR",
    );
  });
});
