// The import's `payment_methods` section: each rule refused with a 400 naming the item and field
// (never the PAN or CVV sent), nothing of a refused import stored, the PAN and CVV stored only as
// ciphertext, and a re-import changing status and expiry but never a card's PAN or owner.
import { describe, expect, it } from "vitest";
import { expectJson } from "../support/api";
import { cardItem, importCards, seedCard, testPan, withCheckDigit } from "../support/cards";
import { seedAccount, uniqueId } from "../support/fixtures";
import { expectConflict, expectInvalid, postImport } from "../support/imports";
import { firstOnAnyShard } from "../support/shards";

function storedCard(paymentMethodId: string) {
  return firstOnAnyShard<Record<string, unknown>>(
    "SELECT * FROM payment_methods WHERE payment_method_id = ?",
    paymentMethodId,
  );
}

describe("the import's payment_methods section", () => {
  it("stores a card with its PAN and CVV as ciphertext only, and counts it", async () => {
    const f = await seedAccount();
    const card = cardItem(f);
    const body = await expectJson(await postImport({ payment_methods: [card] }), 200);
    expect(body).toEqual({
      imported: { partners: 0, customers: 0, accounts: 0, statements: 0, payment_methods: 1 },
    });
    const row = await storedCard(card.payment_method_id);
    expect(row).toMatchObject({
      customer_id: f.customerId,
      account_id: f.accountId,
      partner_id: f.partnerId,
      environment: "sandbox",
      merchant_key: f.merchantKey,
      last4: card.card.pan.slice(-4),
      key_id: "test-1",
      wallets: "[]",
    });
    const text = JSON.stringify(row);
    expect(text).not.toContain(card.card.pan);
    expect(text).not.toContain(card.card.pan.slice(0, 12));
    expect(row?.cvv_ciphertext).not.toBe(card.card.cvv);
  });

  it("takes a card beside the customer and account it belongs to, in one import", async () => {
    const f = await seedAccount();
    const customerId = uniqueId("cus");
    const accountId = uniqueId("acc");
    const card = cardItem({ customerId, accountId });
    await expectJson(
      await postImport({
        customers: [
          {
            customer_id: customerId,
            partner_id: f.partnerId,
            environment: "sandbox",
            merchant_key: f.merchantKey,
          },
        ],
        accounts: [{ account_id: accountId, customer_id: customerId }],
        payment_methods: [card],
      }),
      200,
    );
    expect(await storedCard(card.payment_method_id)).toMatchObject({ account_id: accountId });
  });

  it("refuses each broken rule with a 400 naming the item and field, never the value", async () => {
    const f = await seedAccount();
    const pan = testPan();
    const notLuhn = `${pan.slice(0, -1)}${(Number(pan.at(-1)) + 1) % 10}`;
    const cases: [Parameters<typeof cardItem>[1], string][] = [
      [{ card: { pan: notLuhn, last4: notLuhn.slice(-4) } }, ".card.pan: must be 13 to 19 digits"],
      [{ card: { pan: withCheckDigit("41111111111") } }, ".card.pan: must be 13 to 19 digits"],
      [{ card: { pan: withCheckDigit("4".repeat(19)) } }, ".card.pan: must be 13 to 19 digits"],
      [{ card: { pan, last4: "0000" } }, ".card.pan: must be 13 to 19 digits passing"],
      [{ card: { pan, cvv: "12" } }, ".card.cvv: must be 3 or 4 digits"],
      [{ card: { pan, cvv: "12345" } }, ".card.cvv: must be 3 or 4 digits"],
      [{ card: { pan, expiration_month: 13 } }, ".card.expiration_month:"],
      [{ card: { pan, expiration_month: 0 } }, ".card.expiration_month:"],
      [{ card: { pan, expiration_year: 31 } }, ".card.expiration_year:"],
      [{ customer_id: uniqueId("cus") }, ".customer_id: unknown customer"],
      [{ account_id: uniqueId("acc") }, ".account_id: unknown account"],
    ];
    for (const [overrides, fragment] of cases) {
      const card = cardItem(f, overrides);
      const body = await expectInvalid(
        { payment_methods: [card] },
        "payment_methods[0] (",
        fragment,
      );
      expect(JSON.stringify(body)).not.toContain(card.card.pan);
      expect(JSON.stringify(body)).not.toContain(`"${card.card.cvv}"`);
      expect(await storedCard(card.payment_method_id)).toBeNull();
    }
    // A PAN or CVV of the wrong type is refused without repeating it either.
    const typed = {
      ...cardItem(f),
      card: { ...cardItem(f).card, pan: 4242424242424242, cvv: 987 },
    };
    const body = await expectInvalid(
      { payment_methods: [typed] },
      ".card.pan: must be 13 to 19 digits",
      ".card.cvv: must be 3 or 4 digits",
    );
    expect(JSON.stringify(body)).not.toContain("4242424242424242");
    expect(JSON.stringify(body)).not.toContain("987");
    const missing = cardItem(f) as { card: Record<string, unknown> };
    delete missing.card.pan;
    await expectInvalid({ payment_methods: [missing] }, ".card.pan: is required");
  });

  it("refuses an account of another customer, and stores nothing of the import", async () => {
    const f = await seedAccount();
    const other = { customerId: uniqueId("cus"), accountId: uniqueId("acc") };
    const card = cardItem({ customerId: f.customerId, accountId: other.accountId });
    await expectInvalid(
      {
        customers: [
          {
            customer_id: other.customerId,
            partner_id: f.partnerId,
            environment: "sandbox",
            merchant_key: f.merchantKey,
          },
        ],
        accounts: [
          { account_id: f.accountId, customer_id: f.customerId, current_balance: 5 },
          { account_id: other.accountId, customer_id: other.customerId },
        ],
        payment_methods: [card],
      },
      `.account_id: not an account of customer ${JSON.stringify(f.customerId)}`,
    );
    expect(await storedCard(card.payment_method_id)).toBeNull();
    const account = await firstOnAnyShard<{ current_balance: number | null }>(
      "SELECT current_balance FROM accounts WHERE account_id = ?",
      f.accountId,
    );
    expect(account?.current_balance).not.toBe(5);
  });

  it("changes status and expiry on re-import; a changed PAN, owner or network is a 409", async () => {
    const f = await seedAccount();
    const card = await seedCard(f);
    await importCards({
      ...card,
      status: "CANCELED",
      card: { ...card.card, expiration_month: 3, expiration_year: 2034 },
    });
    expect(await storedCard(card.payment_method_id)).toMatchObject({
      status: "CANCELED",
      expiration_month: 3,
      expiration_year: 2034,
    });

    const otherPan = testPan();
    const changed = { ...card, card: { ...card.card, pan: otherPan, last4: otherPan.slice(-4) } };
    const refused = await expectConflict(
      { payment_methods: [changed] },
      ".card.pan: a card's PAN never changes",
    );
    expect(JSON.stringify(refused)).not.toContain(otherPan);
    expect(JSON.stringify(refused)).not.toContain(card.card.pan);

    const other = await seedAccount();
    await expectConflict(
      {
        payment_methods: [{ ...card, customer_id: other.customerId, account_id: other.accountId }],
      },
      "a card never moves to another customer or account",
    );
    await expectConflict(
      { payment_methods: [{ ...card, card: { ...card.card, network: "MASTERCARD" } }] },
      "network and card_type never change",
    );
    expect(await storedCard(card.payment_method_id)).toMatchObject({
      customer_id: f.customerId,
      network: "VISA",
    });
  });

  it("refuses a payment method id twice in one import", async () => {
    const f = await seedAccount();
    const card = cardItem(f);
    await expectInvalid(
      { payment_methods: [card, { ...card }] },
      "payment_methods[1]",
      "repeats payment_methods[0]",
    );
  });
});
