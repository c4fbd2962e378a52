// A card stored straight in the partner's shard, its PAN and CVV sealed under the test run's data
// key exactly as the import seals them: for tests of what is done with a card, not of its import.
import { env } from "cloudflare:workers";
import { cardVaultOf } from "../../src/payment-methods";
import { uniqueId } from "./fixtures";
import { partnerDatabase } from "./shards";

/** The test run's settings (vitest.config.ts), which wrangler's generated Env does not list. */
export const CARD_SETTINGS = env as { CARD_DATA_KEYS?: string; PROVISIONING_KEY?: string };

export const TEST_PAN = "4111111111111111";

export interface CardRowOptions {
  status?: "ACTIVE" | "INACTIVE" | "CANCELED";
  expirationMonth?: number;
  expirationYear?: number;
  merchantKey?: string;
  environment?: "sandbox" | "production";
}

/** Stores a card of the fixture's customer and account; returns its id. */
export async function storeCardRow(
  f: { partnerId: string; customerId: string; accountId: string; merchantKey: string },
  options: CardRowOptions = {},
): Promise<string> {
  const id = uniqueId("pm");
  const sealed = await cardVaultOf(CARD_SETTINGS).seal({ pan: TEST_PAN, cvv: "123" }, id);
  const db = await partnerDatabase(f.partnerId);
  await db
    .prepare(
      `INSERT INTO payment_methods (payment_method_id, customer_id, account_id, partner_id,
         environment, merchant_key, type, status, network, card_type, last4, expiration_month,
         expiration_year, pan_ciphertext, cvv_ciphertext, key_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 'CARD', ?, 'VISA', 'VIRTUAL', ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      id,
      f.customerId,
      f.accountId,
      f.partnerId,
      options.environment ?? "sandbox",
      options.merchantKey ?? f.merchantKey,
      options.status ?? "ACTIVE",
      TEST_PAN.slice(-4),
      options.expirationMonth ?? 12,
      options.expirationYear ?? new Date().getUTCFullYear() + 3,
      sealed.panCiphertext,
      sealed.cvvCiphertext,
      sealed.keyId,
      new Date().toISOString(),
    )
    .run();
  return id;
}

export type CardOwner = Parameters<typeof storeCardRow>[0];

/** Stores an ACTIVE card of the customer's account in `environment`; returns its id. */
export function storeCard(
  owner: CardOwner,
  environment: "sandbox" | "production" = "sandbox",
): Promise<string> {
  return storeCardRow(owner, { environment });
}
