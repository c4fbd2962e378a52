// Reading cards: any valid key reads them masked, in every version; a key holding PCI_DETAILS_READ
// gets the PAN and CVV on retrieve (never a 403 without it), uncached and audited; a card outside
// the key's partner, environment or product is a 404 in each version's shape.
import { describe, expect, it } from "vitest";
import { api, expectJson } from "../support/api";
import { ALL_VERSIONS, versionsBefore, versionsWith } from "../support/bundle-versions";
import { importCards, seedCard } from "../support/cards";
import { createKey, importData, seedAccount, uniqueId } from "../support/fixtures";
import { withRequestLog } from "../support/request-log";
import { countOnEveryShard, firstOnAnyShard } from "../support/shards";

interface Card {
  payment_method_id: string;
  status: string;
  card: { last4: string; wallets: unknown[]; pci_details?: Record<string, unknown> };
}

const ENVELOPE = "useApiErrorEnvelopeForAllErrors";

describe("GET /v2/payment_methods/{payment_method_id}", () => {
  it("answers the masked card to any valid key, in every version", async () => {
    const f = await seedAccount({ scopes: [] });
    const card = await seedCard(f);
    for (const version of ALL_VERSIONS) {
      const res = await api(`/v2/payment_methods/${card.payment_method_id}`, {
        key: f.key,
        merchantKey: f.merchantKey,
        version,
      });
      const body = await expectJson<Card & Record<string, unknown>>(res, 200);
      expect(body).toMatchObject({
        payment_method_id: card.payment_method_id,
        customer_id: f.customerId,
        account_id: f.accountId,
        type: "CARD",
        status: "ACTIVE",
        card: {
          network: "VISA",
          card_type: "VIRTUAL",
          last4: card.card.pan.slice(-4),
          expiration_month: 12,
          expiration_year: 2031,
          wallets: [],
        },
      });
      expect(body.card.pci_details).toBeUndefined();
      expect(JSON.stringify(body)).not.toContain(card.card.pan);
    }
  });

  it("adds pci_details for PCI_DETAILS_READ, uncached, and records the read", async () => {
    const f = await seedAccount({ scopes: ["PCI_DETAILS_READ"] });
    const card = await seedCard(f, { card: { cvv: "4321" } });
    const res = await api(`/v2/payment_methods/${card.payment_method_id}`, {
      key: f.key,
      merchantKey: f.merchantKey,
      headers: { "cf-connecting-ip": "203.0.113.9" },
    });
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await expectJson<Card>(res, 200);
    expect(body.card.pci_details).toEqual({
      pan: card.card.pan,
      cvv: "4321",
      expiration_month: 12,
      expiration_year: 2031,
    });
    const audit = await firstOnAnyShard<Record<string, unknown>>(
      "SELECT * FROM audit_events WHERE action = 'payment_method.pci_details_read' AND target = ?",
      card.payment_method_id,
    );
    expect(audit).toMatchObject({
      partner_id: f.partnerId,
      actor_type: "key",
      actor_id: f.keyId,
      environment: "sandbox",
      ip: "203.0.113.9",
    });
    // The list never carries them, whatever the key holds.
    const list = await expectJson<{ data: Card[] }>(
      await api(`/v2/payment_methods?customer_id=${f.customerId}`, {
        key: f.key,
        merchantKey: f.merchantKey,
      }),
      200,
    );
    expect(list.data[0]?.card.pci_details).toBeUndefined();
  });

  it("is a 404 for another partner's, environment's or product's card, in each version's shape", async () => {
    const f = await seedAccount({ scopes: [] });
    const card = await seedCard(f);
    const stranger = await seedAccount({ scopes: ["PCI_DETAILS_READ"] });
    const { apiKey: production } = await createKey(f.partnerId, "production", []);
    const otherProduct = uniqueId("mk");
    await importData({
      partners: [
        {
          partner_id: f.partnerId,
          name: "Test Partner",
          products: [
            { merchant_key: f.merchantKey, name: "Test Card" },
            { merchant_key: otherProduct, name: "Other Card" },
          ],
        },
      ],
    });
    const callers = [
      { key: stranger.key, merchantKey: stranger.merchantKey, versions: ALL_VERSIONS },
      { key: production, merchantKey: f.merchantKey, versions: versionsBefore(ENVELOPE) },
      { key: f.key, merchantKey: otherProduct, versions: ALL_VERSIONS },
    ];
    for (const caller of callers) {
      for (const id of [card.payment_method_id, uniqueId("pm")]) {
        for (const version of caller.versions) {
          const res = await api(`/v2/payment_methods/${id}`, { ...caller, version });
          const body = await expectJson<Record<string, unknown>>(res, 404);
          const expected = {
            type: "PAYMENT_METHOD_NOT_FOUND_ERROR",
            message: "No such payment method for this key and product.",
            param: "payment_method_id",
          };
          if (versionsWith(ENVELOPE).includes(version)) expect(body).toEqual({ error: expected });
          else expect(body).toEqual(expected);
        }
      }
    }
  });
});

describe("what a card read costs and says", () => {
  it("never repeats the requested id in a 404: a pasted card number is not echoed", async () => {
    const f = await seedAccount({ scopes: ["PCI_DETAILS_READ"] });
    const card = await seedCard(f);
    for (const id of [card.card.pan, "4000056655665556", uniqueId("pm")]) {
      for (const version of ALL_VERSIONS) {
        const res = await api(`/v2/payment_methods/${id}`, {
          key: f.key,
          merchantKey: f.merchantKey,
          version,
        });
        const text = await res.text();
        expect(res.status).toBe(404);
        expect(text).toContain("PAYMENT_METHOD_NOT_FOUND_ERROR");
        expect(text).not.toContain(id);
      }
    }
  });

  it("records a read of the details in the batch that reads the card: no round trip more", async () => {
    const f = await seedAccount({ scopes: [] });
    const card = await seedCard(f);
    const { apiKey: pciKey } = await createKey(f.partnerId, "sandbox", ["PCI_DETAILS_READ"]);
    const read = (key: string) =>
      withRequestLog(() =>
        api(`/v2/payment_methods/${card.payment_method_id}`, { key, merchantKey: f.merchantKey }),
      );
    const masked = await read(f.key);
    expect(masked.res.status).toBe(200);
    const unmasked = await read(pciKey);
    const body = await expectJson<Card>(unmasked.res, 200);
    expect(body.card.pci_details?.pan).toBe(card.card.pan);
    expect(unmasked.log.d1_queries).toBe(masked.log.d1_queries);
    const reads = await countOnEveryShard(
      "SELECT count(*) AS n FROM audit_events WHERE action = 'payment_method.pci_details_read' AND target = ?",
      card.payment_method_id,
    );
    expect(reads).toBe(1);
  });
});

describe("GET /v2/payment_methods", () => {
  it("lists a customer's cards newest first, paged by id, filtered by status", async () => {
    const f = await seedAccount({ scopes: [] });
    const cards = [];
    for (const status of ["ACTIVE", "CANCELED", "ACTIVE"] as const) {
      cards.push(await seedCard(f, { status }));
    }
    const list = (query: string) =>
      api(`/v2/payment_methods?customer_id=${f.customerId}${query}`, {
        key: f.key,
        merchantKey: f.merchantKey,
      });
    const ids = (body: { data: Card[] }) => body.data.map((c) => c.payment_method_id);
    const newestFirst = cards.map((c) => c.payment_method_id).reverse();
    const all = await expectJson<{ data: Card[]; has_more: boolean }>(await list(""), 200);
    expect(ids(all)).toEqual(newestFirst);
    expect(all.has_more).toBe(false);

    const first = await expectJson<{ data: Card[]; has_more: boolean }>(
      await list("&limit=2"),
      200,
    );
    expect(ids(first)).toEqual(newestFirst.slice(0, 2));
    expect(first.has_more).toBe(true);
    const next = await expectJson<{ data: Card[]; has_more: boolean }>(
      await list(`&limit=2&starting_after=${newestFirst[1]}`),
      200,
    );
    expect(ids(next)).toEqual(newestFirst.slice(2));
    expect(next.has_more).toBe(false);
    const active = await expectJson<{ data: Card[]; has_more: boolean }>(
      await list(`&status=ACTIVE&limit=1&starting_after=${newestFirst[0]}`),
      200,
    );
    expect(ids(active)).toEqual([cards[0]?.payment_method_id]);
    expect(active.has_more).toBe(false);

    const canceled = await expectJson<{ data: Card[] }>(await list("&status=CANCELED"), 200);
    expect(ids(canceled)).toEqual([cards[1]?.payment_method_id]);
    // A re-import changes the status the filter sees.
    const revived = cards[1];
    if (revived) await importCards({ ...revived, status: "ACTIVE" });
    expect(ids(await expectJson(await list("&status=CANCELED"), 200))).toEqual([]);
  });

  it("refuses a missing customer_id, an unknown status or cursor, and another's customer", async () => {
    const f = await seedAccount({ scopes: [] });
    const own = await seedCard(f);
    const stranger = await seedAccount({ scopes: [] });
    const strangers = await seedCard(stranger);
    const call = (query: string, who = f) =>
      api(`/v2/payment_methods${query}`, {
        key: who.key,
        merchantKey: who.merchantKey,
        // A version whose 400 names the parameter at fault.
        version: versionsWith(ENVELOPE)[0] as string,
      });
    const invalid = async (query: string, param: string) => {
      const body = await expectJson<{ error: { param?: string } }>(await call(query), 400);
      expect(body.error.param).toBe(param);
    };
    await invalid("", "customer_id");
    await invalid(`?customer_id=${f.customerId}&status=LOST`, "status");
    await invalid(
      `?customer_id=${f.customerId}&starting_after=${uniqueId("pm")}`,
      "starting_after",
    );
    // Another customer's card is no position in this customer's list.
    await invalid(
      `?customer_id=${f.customerId}&starting_after=${strangers.payment_method_id}`,
      "starting_after",
    );
    await invalid(`?customer_id=${f.customerId}&limit=0`, "limit");
    for (const query of ["", `&starting_after=${own.payment_method_id}`, "&status=ACTIVE"]) {
      const other = await expectJson<{ error: { type: string } }>(
        await call(`?customer_id=${f.customerId}${query}`, stranger),
        404,
      );
      expect(other.error.type).toBe("CUSTOMER_NOT_FOUND_ERROR");
    }
  });
});
