// Cards in tests: a Luhn-valid PAN of a test range, a card as the import's `payment_methods`
// section takes it, and a fixture's card imported.
import { luhnCheckDigit } from "../../src/domain/luhn";
import type { Fixture } from "./fixtures";
import { uniqueId } from "./fixtures";
import { postImport } from "./imports";

/** `digits` completed with the Luhn check digit. */
export function withCheckDigit(digits: string): string {
  return `${digits}${luhnCheckDigit(digits)}`;
}

/** A fresh 16-digit Visa PAN that passes the Luhn check. */
export function testPan(): string {
  const body = Array.from({ length: 14 }, () => Math.floor(Math.random() * 10)).join("");
  return withCheckDigit(`4${body}`);
}

export interface CardInput {
  payment_method_id: string;
  customer_id: string;
  account_id: string;
  type: "CARD";
  status: "ACTIVE" | "INACTIVE" | "CANCELED";
  card: {
    network: "VISA" | "MASTERCARD" | "AMEX";
    card_type: "PHYSICAL" | "VIRTUAL";
    last4: string;
    expiration_month: number;
    expiration_year: number;
    pan: string;
    cvv: string;
  };
}

/** A card of the fixture's account, as the import takes it. */
export function cardItem(
  f: Pick<Fixture, "customerId" | "accountId">,
  overrides: Partial<Omit<CardInput, "card">> & { card?: Partial<CardInput["card"]> } = {},
): CardInput {
  const pan = overrides.card?.pan ?? testPan();
  return {
    payment_method_id: uniqueId("pm"),
    customer_id: f.customerId,
    account_id: f.accountId,
    type: "CARD",
    status: "ACTIVE",
    ...overrides,
    card: {
      network: "VISA",
      card_type: "VIRTUAL",
      last4: pan.slice(-4),
      expiration_month: 12,
      expiration_year: 2031,
      pan,
      cvv: "123",
      ...overrides.card,
    },
  };
}

/** Imports cards; throws unless the import answers 200. */
export async function importCards(...cards: CardInput[]): Promise<void> {
  const res = await postImport({ payment_methods: cards });
  if (res.status !== 200) throw new Error(`card import: ${res.status} ${await res.text()}`);
}

/** A card imported for the fixture's account. */
export async function seedCard(
  f: Pick<Fixture, "customerId" | "accountId">,
  overrides: Parameters<typeof cardItem>[1] = {},
): Promise<CardInput> {
  const card = cardItem(f, overrides);
  await importCards(card);
  return card;
}
