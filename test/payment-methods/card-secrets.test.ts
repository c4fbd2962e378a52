// A card's PAN and CVV at rest: AES-GCM under a data key named by id, bound to the card and the
// field; a second configured key opens what it wrote during a rotation, and the maintenance run
// encrypts those cards again under the current key, so the old key can then be dropped.
import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { cardVaultOf, parseCardDataKeys } from "../../src/payment-methods/card-secrets";
import { api, expectJson } from "../support/api";
import { seedCard } from "../support/cards";
import { seedAccount, uniqueId } from "../support/fixtures";
import { partnerDatabase } from "../support/shards";

const OLD = "old-1:TOtD5/ol1ZOlFouQc7MVe23rf3WjULWCtYq+xWy67WA=";
const NEW = "new-2:urcLNjwMqRpEPTFQBd9zKcd-oTB3fDnIzoExeu698yg";
const SECRETS = { pan: "4242424242424242", cvv: "123" };

describe("card secrets", () => {
  it("encrypt under the first key and open only as the same card's fields", async () => {
    const vault = cardVaultOf({ CARD_DATA_KEYS: OLD });
    const sealed = await vault.seal(SECRETS, "pm_1");
    expect(sealed.keyId).toBe("old-1");
    expect(JSON.stringify(sealed)).not.toContain("4242");
    expect(await vault.open(sealed, "pm_1")).toEqual(SECRETS);
    // The same secrets encrypt differently each time (a fresh IV).
    expect((await vault.seal(SECRETS, "pm_1")).panCiphertext).not.toBe(sealed.panCiphertext);
    // Another card's id, swapped fields or an unknown key id open nothing.
    expect(await vault.open(sealed, "pm_2")).toBeNull();
    const swapped = { ...sealed, panCiphertext: sealed.cvvCiphertext };
    expect(await vault.open(swapped, "pm_1")).toBeNull();
    expect(await vault.open({ ...sealed, keyId: "new-2" }, "pm_1")).toBeNull();
  });

  it("refuse a malformed CARD_DATA_KEYS as a whole, and seal nothing without one", async () => {
    for (const value of [
      undefined,
      "",
      "no-colon",
      "k:c2hvcnQ=",
      `bad id:${OLD.split(":")[1]}`,
      `${OLD},${OLD}`,
      `${NEW},broken`,
    ]) {
      expect(parseCardDataKeys(value), String(value)).toBeNull();
      const vault = cardVaultOf({ CARD_DATA_KEYS: value });
      expect(vault.currentKeyId).toBeNull();
      await expect(vault.seal(SECRETS, "pm_1")).rejects.toThrow(/CARD_DATA_KEYS/);
    }
    expect(parseCardDataKeys(`${NEW}, ${OLD}`)?.map((key) => key.id)).toEqual(["new-2", "old-1"]);
  });

  it("open under the previous key during a rotation, and the cron encrypts them again", async () => {
    const f = await seedAccount();
    const db = await partnerDatabase(f.partnerId);
    const id = uniqueId("pm");
    const sealed = await cardVaultOf({ CARD_DATA_KEYS: OLD }).seal(SECRETS, id);
    await db
      .prepare(
        `INSERT INTO payment_methods (payment_method_id, customer_id, account_id, partner_id,
           environment, merchant_key, type, status, network, card_type, last4, expiration_month,
           expiration_year, pan_ciphertext, cvv_ciphertext, key_id, created_at)
         VALUES (?, ?, ?, ?, 'sandbox', ?, 'CARD', 'ACTIVE', 'VISA', 'VIRTUAL', '4242', 12, 2030,
           ?, ?, ?, ?)`,
      )
      .bind(
        id,
        f.customerId,
        f.accountId,
        f.partnerId,
        f.merchantKey,
        sealed.panCiphertext,
        sealed.cvvCiphertext,
        sealed.keyId,
        new Date().toISOString(),
      )
      .run();
    const rotating = cardVaultOf({ CARD_DATA_KEYS: `${NEW},${OLD}` });
    expect(await rotating.open(sealed, id)).toEqual(SECRETS);

    await worker.scheduled(
      createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }),
      { ...env, CARD_DATA_KEYS: `${NEW},${OLD}` },
    );
    const row = await db
      .prepare(
        "SELECT pan_ciphertext, cvv_ciphertext, key_id FROM payment_methods WHERE payment_method_id = ?",
      )
      .bind(id)
      .first<{ pan_ciphertext: string; cvv_ciphertext: string; key_id: string }>();
    expect(row?.key_id).toBe("new-2");
    const again = {
      panCiphertext: row?.pan_ciphertext ?? "",
      cvvCiphertext: row?.cvv_ciphertext ?? "",
      keyId: row?.key_id ?? "",
    };
    // The new key alone opens it now: the old one can go.
    expect(await cardVaultOf({ CARD_DATA_KEYS: NEW }).open(again, id)).toEqual(SECRETS);
  });

  it("read over HTTP through a rotation: the old key, both keys, then the new key alone", async () => {
    const f = await seedAccount({ scopes: ["PCI_DETAILS_READ"] });
    const card = await seedCard(f, { card: { cvv: "5150" } });
    const withKeys = (keys: string) => async (request: Request) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(request, { ...env, CARD_DATA_KEYS: keys }, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    };
    const read = async (keys: string) => {
      const res = await api(`/v2/payment_methods/${card.payment_method_id}`, {
        key: f.key,
        merchantKey: f.merchantKey,
        fetch: withKeys(keys),
      });
      const body = await expectJson<{ card: { pci_details?: { pan: string; cvv: string } } }>(
        res,
        200,
      );
      return body.card.pci_details;
    };
    const secrets = { pan: card.card.pan, cvv: "5150" };
    const rotating = `${NEW},${env.CARD_DATA_KEYS}`;
    expect(await read(rotating)).toMatchObject(secrets);
    await worker.scheduled(
      createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }),
      { ...env, CARD_DATA_KEYS: rotating },
    );
    expect(await read(NEW)).toMatchObject(secrets);
    // The old key alone opens nothing now: the card still reads, masked.
    expect(await read(env.CARD_DATA_KEYS)).toBeUndefined();
  });
});
