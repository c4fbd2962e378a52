// The payment_methods table (a shard table: see src/db/schema.ts): the programme's cards. The PAN
// and CVV are stored only as AES-GCM ciphertext under a key named by `key_id`; everything a masked
// read shows is stored in the clear.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accounts } from "../accounts/schema";
import { customers } from "../db/schema";

/** A wallet a card was provisioned to, as `card.wallets` lists it. */
export interface CardWallet {
  wallet: "apple_pay" | "google_pay" | "samsung_pay";
  created_at: string;
}

export const paymentMethods = sqliteTable(
  "payment_methods",
  {
    paymentMethodId: text("payment_method_id").primaryKey(),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.customerId),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.accountId),
    // The owning customer's read scope, copied at import as accounts copy it: a customer's
    // partner, environment and product never change, so the copy cannot drift.
    partnerId: text("partner_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    merchantKey: text("merchant_key").notNull(),
    type: text("type", { enum: ["CARD"] }).notNull(),
    status: text("status", { enum: ["ACTIVE", "INACTIVE", "CANCELED"] }).notNull(),
    network: text("network", { enum: ["VISA", "MASTERCARD", "AMEX"] }).notNull(),
    cardType: text("card_type", { enum: ["PHYSICAL", "VIRTUAL"] }).notNull(),
    last4: text("last4").notNull(),
    expirationMonth: integer("expiration_month").notNull(),
    expirationYear: integer("expiration_year").notNull(),
    // The PAN and CVV, each AES-GCM ciphertext under the data key `key_id` names
    // (card-secrets.ts). Null only for a card stored without them, which has no pci_details.
    panCiphertext: text("pan_ciphertext"),
    cvvCiphertext: text("cvv_ciphertext"),
    keyId: text("key_id"),
    // The wallets the card was provisioned to, oldest first: `card.wallets` as the API shows it.
    wallets: text("wallets", { mode: "json" }).$type<CardWallet[]>().notNull().default(sql`'[]'`),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    // The customer's cards, newest first: the list's keyset, and the check that a body's
    // payment_method_id is one of the customer's cards.
    index("payment_methods_customer_idx").on(
      t.partnerId,
      t.environment,
      t.merchantKey,
      t.customerId,
      t.createdAt,
      t.paymentMethodId,
    ),
  ],
);
