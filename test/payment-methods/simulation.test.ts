// The sandbox's test card: a card made for one of a sandbox customer's accounts, its PAN Luhn-valid
// on its network's test range, read back masked by any key and in full with PCI_DETAILS_READ, as
// the retrieve answers it; defaults for what the body leaves out; every version; each 400 and 404;
// no such route for a production key; another partner's customer as unknown as none.
import { describe, expect, it } from "vitest";
import { api, expectJson } from "../support/api";
import { ALL_VERSIONS, OLDEST, versionsWith } from "../support/bundle-versions";
import { withCheckDigit } from "../support/cards";
import { createKey, type Fixture, seedAccount } from "../support/fixtures";
import { firstOnAnyShard } from "../support/shards";

const PATH = "/v2/simulations/payment_methods";
const ENVELOPE = "useApiErrorEnvelopeForAllErrors";

interface Card {
  payment_method_id: string;
  customer_id: string;
  account_id: string;
  type: string;
  status: string;
  card: {
    network: string;
    card_type: string;
    last4: string;
    expiration_month: number;
    expiration_year: number;
    wallets: unknown[];
    pci_details?: { pan: string; cvv: string; expiration_month: number; expiration_year: number };
  };
  created_at: string;
}

function simulate(f: { key: string }, body: unknown, options: { version?: string } = {}) {
  return api(PATH, { key: f.key, method: "POST", body, ...options });
}

const ofFixture = (f: Fixture) => ({ customer_id: f.customerId, account_id: f.accountId });

/** The error of a response in either version's shape: enveloped, or the bare error. */
function errorOf(body: Record<string, unknown>, version: string): Record<string, unknown> {
  return versionsWith(ENVELOPE).includes(version) ? (body.error as Record<string, unknown>) : body;
}

function expectLuhnValid(pan: string): void {
  expect(withCheckDigit(pan.slice(0, -1))).toBe(pan);
}

describe("POST /v2/simulations/payment_methods", { timeout: 30_000 }, () => {
  it("makes a VIRTUAL, ACTIVE VISA card by default, answered and read back as the retrieve answers it", async () => {
    const f = await seedAccount();
    const res = await simulate(f, ofFixture(f));
    const created = await expectJson<Card>(res, 201);
    const now = new Date();
    expect(created).toEqual({
      payment_method_id: expect.stringMatching(/^pm_[A-Za-z0-9]{25}$/),
      customer_id: f.customerId,
      account_id: f.accountId,
      type: "CARD",
      status: "ACTIVE",
      card: {
        network: "VISA",
        card_type: "VIRTUAL",
        last4: expect.stringMatching(/^\d{4}$/),
        expiration_month: now.getUTCMonth() + 1,
        expiration_year: now.getUTCFullYear() + 3,
        wallets: [],
      },
      created_at: expect.any(String),
    });
    const read = await api(`/v2/payment_methods/${created.payment_method_id}`, { key: f.key });
    expect(await expectJson(read, 200)).toEqual(created);
    const listed = await api(`/v2/payment_methods?customer_id=${f.customerId}`, { key: f.key });
    expect((await expectJson<{ data: Card[] }>(listed, 200)).data).toEqual([created]);
  });

  it("answers the PAN and CVV to PCI_DETAILS_READ, uncached and audited: Luhn-valid, on the network's test range", async () => {
    const f = await seedAccount({ scopes: ["ACCOUNT_READ", "PCI_DETAILS_READ"] });
    const ranges = [
      ["VISA", /^400000\d{10}$/, /^\d{3}$/],
      ["MASTERCARD", /^555555\d{10}$/, /^\d{3}$/],
      ["AMEX", /^378282\d{9}$/, /^\d{4}$/],
    ] as const;
    for (const [network, pan, cvv] of ranges) {
      const res = await simulate(f, { ...ofFixture(f), network });
      expect(res.headers.get("cache-control")).toBe("no-store");
      const created = await expectJson<Card>(res, 201);
      const details = created.card.pci_details;
      expect(details?.pan).toMatch(pan);
      expect(details?.cvv).toMatch(cvv);
      expectLuhnValid(details?.pan ?? "");
      expect(created.card.last4).toBe(details?.pan.slice(-4));
      expect(details).toMatchObject({
        expiration_month: created.card.expiration_month,
        expiration_year: created.card.expiration_year,
      });
      const read = await api(`/v2/payment_methods/${created.payment_method_id}`, { key: f.key });
      expect(await expectJson(read, 200)).toEqual(created);
      const audit = await firstOnAnyShard<Record<string, unknown>>(
        "SELECT * FROM audit_events WHERE action = 'payment_method.pci_details_read' AND target = ?",
        created.payment_method_id,
      );
      expect(audit).toMatchObject({ partner_id: f.partnerId, actor_id: f.keyId });
    }
  });

  it("makes two cards with different numbers", async () => {
    const f = await seedAccount({ scopes: ["ACCOUNT_READ", "PCI_DETAILS_READ"] });
    const first = await expectJson<Card>(await simulate(f, ofFixture(f)), 201);
    const second = await expectJson<Card>(await simulate(f, ofFixture(f)), 201);
    expect(second.payment_method_id).not.toBe(first.payment_method_id);
    expect(second.card.pci_details?.pan).not.toBe(first.card.pci_details?.pan);
  });

  it("takes the network, card type and status asked for, in every version", async () => {
    const f = await seedAccount();
    for (const version of ALL_VERSIONS) {
      const body = { ...ofFixture(f), network: "AMEX", card_type: "PHYSICAL", status: "INACTIVE" };
      const created = await expectJson<Card>(await simulate(f, body, { version }), 201);
      expect(created).toMatchObject({
        status: "INACTIVE",
        card: { network: "AMEX", card_type: "PHYSICAL" },
      });
      expect(created.card.pci_details).toBeUndefined();
    }
    const canceled = await simulate(f, { ...ofFixture(f), status: "CANCELED" });
    expect(await expectJson(canceled, 201)).toMatchObject({
      status: "CANCELED",
      card: { network: "VISA", card_type: "VIRTUAL" },
    });
  });

  it("answers 400 naming the field, in each version's shape, and stores nothing", async () => {
    const f = await seedAccount();
    const cases: [unknown, string, string][] = [
      [{ account_id: f.accountId }, "customer_id", "customer_id"],
      [{ customer_id: f.customerId }, "account_id", "account_id"],
      [{ ...ofFixture(f), network: "DISCOVER" }, "network", "network"],
      [{ ...ofFixture(f), card_type: "plastic" }, "card_type", "card_type"],
      [{ ...ofFixture(f), status: "LOST" }, "status", "status"],
      [{ ...ofFixture(f), customer_id: "" }, "customer_id", "customer_id"],
      [{ ...ofFixture(f), pan: "4000000000000002" }, "pan", '"pan" is not a field of this request'],
    ];
    for (const version of ALL_VERSIONS) {
      for (const [body, field, detail] of cases) {
        const res = await simulate(f, body, { version });
        const error = await expectJson<Record<string, unknown>>(res, 400);
        if (versionsWith(ENVELOPE).includes(version)) {
          const e = errorOf(error, version);
          expect(e.type).toBe("INVALID_REQUEST_ERROR");
          expect(e.param).toBe(field);
          expect((e.details as string[])[0]).toContain(detail);
        } else {
          expect(error).toMatchObject({ path: PATH, error: "Bad Request", status: 400 });
          expect((error.details as string[])[0]).toContain(detail);
        }
      }
      const missing = await api(PATH, { key: f.key, method: "POST", version });
      expect(missing.status).toBe(400);
    }
    const listed = await api(`/v2/payment_methods?customer_id=${f.customerId}`, { key: f.key });
    expect((await expectJson<{ data: Card[] }>(listed, 200)).data).toEqual([]);
  });

  it("answers 404 for an unknown or another partner's customer, and an account not the customer's", async () => {
    const f = await seedAccount();
    const other = await seedAccount();
    for (const version of ALL_VERSIONS) {
      const never = await simulate(
        f,
        { customer_id: "cus_never", account_id: f.accountId },
        {
          version,
        },
      );
      const neverBody = await expectJson<Record<string, unknown>>(never, 404);
      expect(errorOf(neverBody, version)).toMatchObject({ type: "CUSTOMER_NOT_FOUND_ERROR" });
      const theirs = await simulate(f, ofFixture(other), { version });
      const theirsBody = await expectJson<Record<string, unknown>>(theirs, 404);
      expect(JSON.stringify(theirsBody).replaceAll(other.customerId, "cus_never")).toBe(
        JSON.stringify(neverBody).replaceAll(f.accountId, other.accountId),
      );
      const account = await simulate(
        f,
        { customer_id: f.customerId, account_id: other.accountId },
        { version },
      );
      const accountBody = await expectJson<Record<string, unknown>>(account, 404);
      expect(errorOf(accountBody, version)).toMatchObject({ type: "ACCOUNT_NOT_FOUND_ERROR" });
    }
    for (const fixture of [f, other]) {
      const listed = await api(`/v2/payment_methods?customer_id=${fixture.customerId}`, {
        key: fixture.key,
      });
      expect((await expectJson<{ data: Card[] }>(listed, 200)).data).toEqual([]);
    }
  });

  it("does not exist for a production key: the 404 of an unknown route", async () => {
    const f = await seedAccount();
    const live = await createKey(f.partnerId, "production", ["ACCOUNT_READ", "PCI_DETAILS_READ"]);
    const res = await simulate({ key: live.apiKey }, ofFixture(f));
    expect(res.status).toBe(404);
    expect(res.headers.get("x-service-version")).toBe(OLDEST);
    expect(await res.json()).toEqual({
      error: { type: "NOT_FOUND_ERROR", message: `No route POST ${PATH}.` },
    });
  });

  it("requires ACCOUNT_READ", async () => {
    const f = await seedAccount({ scopes: ["PCI_DETAILS_READ"] });
    expect((await simulate(f, ofFixture(f))).status).toBe(403);
  });

  it("honours the Idempotency-Key: the same request makes one card", async () => {
    const f = await seedAccount();
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const send = (body: unknown) => api(PATH, { key: f.key, method: "POST", body, headers });
    const first = await expectJson<Card>(await send(ofFixture(f)), 201);
    const again = await send(ofFixture(f));
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(first);
    expect((await send({ ...ofFixture(f), network: "AMEX" })).status).toBe(422);
    const listed = await api(`/v2/payment_methods?customer_id=${f.customerId}`, { key: f.key });
    expect((await expectJson<{ data: Card[] }>(listed, 200)).data).toHaveLength(1);
  });
});
