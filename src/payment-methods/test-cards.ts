// The numbers of a sandbox test card: a PAN on a range each network reserves for testing, so it
// can never be a real card's, completed with its Luhn check digit; a random CVV; an expiry at the
// end of the month three years ahead. Every digit comes from crypto.getRandomValues.
import { luhnCheckDigit } from "../domain/luhn";
import type { CardSecrets } from "./card-secrets";

export type CardNetwork = "VISA" | "MASTERCARD" | "AMEX";

/** Each network's test range and the length of its PANs. */
const TEST_RANGES: Record<CardNetwork, { prefix: string; length: number; cvvLength: number }> = {
  VISA: { prefix: "400000", length: 16, cvvLength: 3 },
  MASTERCARD: { prefix: "555555", length: 16, cvvLength: 3 },
  AMEX: { prefix: "378282", length: 15, cvvLength: 4 },
};

/** How many years ahead a test card expires. */
const VALID_YEARS = 3;

/** `count` uniformly random decimal digits. */
function randomDigits(count: number): string {
  let digits = "";
  while (digits.length < count) {
    for (const byte of crypto.getRandomValues(new Uint8Array(count))) {
      // 250 is the largest multiple of 10 a byte holds: bytes above it would favour 0 to 5.
      if (byte < 250 && digits.length < count) digits += String(byte % 10);
    }
  }
  return digits;
}

export interface TestCard extends CardSecrets {
  last4: string;
  expirationMonth: number;
  expirationYear: number;
}

/** A fresh test card of the network, expiring at the end of the month three years after `now`. */
export function testCard(network: CardNetwork, now: Date): TestCard {
  const { prefix, length, cvvLength } = TEST_RANGES[network];
  const body = prefix + randomDigits(length - prefix.length - 1);
  const pan = body + luhnCheckDigit(body);
  return {
    pan,
    cvv: randomDigits(cvvLength),
    last4: pan.slice(-4),
    expirationMonth: now.getUTCMonth() + 1,
    expirationYear: now.getUTCFullYear() + VALID_YEARS,
  };
}
