// The import's `payment_methods` section: the stored cards it names (read beside the import's other
// rows), its review (each card's customer and account known and each other's, what a re-import
// may change), and its writes for the import's batch. A card's PAN and CVV are encrypted here,
// before anything is written, and no refusal repeats either.
import type { Database } from "../db/client";
import { jsonChunks } from "../db/json-rows";
import type { Environment } from "../domain/environment";
import type { PaymentMethodInput } from "../domain/payment-method-item";
import type { CardVault, SealedCardSecrets } from "./card-secrets";

/** A stored card, with what a re-import is compared against. */
export interface StoredCard {
  payment_method_id: string;
  customer_id: string;
  account_id: string;
  partner_id: string;
  network: string;
  card_type: string;
  pan_ciphertext: string | null;
  cvv_ciphertext: string | null;
  key_id: string | null;
}

const STORED_CARDS =
  "SELECT payment_method_id, customer_id, account_id, partner_id, network, card_type, " +
  "pan_ciphertext, cvv_ciphertext, key_id FROM payment_methods " +
  "WHERE payment_method_id IN (SELECT value FROM json_each(?1))";

/** The stored cards of the section, by id (one statement per chunk of ids, in one batch). */
export async function readStoredCards(
  db: Database,
  cards: readonly PaymentMethodInput[],
): Promise<Map<string, StoredCard>> {
  const found = new Map<string, StoredCard>();
  const chunks = jsonChunks(
    cards.map((card) => card.payment_method_id),
    (id) => id,
  );
  if (chunks.length === 0) return found;
  const statement = db.$client.prepare(STORED_CARDS);
  const results = await db.$client.batch<StoredCard>(chunks.map((chunk) => statement.bind(chunk)));
  for (const { results: rows } of results) {
    for (const row of rows) found.set(row.payment_method_id, row);
  }
  return found;
}

/** A customer's read scope, which its cards copy. */
export interface CardOwnerScope {
  partnerId: string;
  environment: Environment;
  merchantKey: string;
}

/** What the review knows of the rest of the import: customers and accounts, stored or imported. */
export interface CardReferences {
  customerScope(customerId: string): CardOwnerScope | undefined;
  /** The customer an account belongs to once the import is applied. */
  accountCustomer(accountId: string): string | undefined;
}

/** A card ready to be written: its fields, its owner's scope and its secrets encrypted. */
export interface CardRow {
  card: PaymentMethodInput;
  scope: CardOwnerScope;
  sealed: SealedCardSecrets;
}

export interface CardReview {
  /** `400` problems: unknown customers and accounts, each naming its item and field. */
  invalid: string[];
  /** `409` problems: what a card never changes. */
  conflicts: string[];
  rows: CardRow[];
}

const label = (index: number, id: string) =>
  `payment_methods[${index}] (${JSON.stringify(id.slice(0, 64))})`;

/**
 * Reviews the section: a card's customer and account must be known, the account the customer's;
 * a stored card keeps its customer, account, network, type and PAN (a re-import changes its
 * status, expiry and CVV). Answers the cards' rows, their secrets encrypted, when nothing is wrong.
 */
export async function reviewCards(
  cards: readonly PaymentMethodInput[],
  stored: ReadonlyMap<string, StoredCard>,
  references: CardReferences,
  vault: CardVault,
): Promise<CardReview> {
  const invalid: string[] = [];
  const conflicts: string[] = [];
  const owned: { card: PaymentMethodInput; scope: CardOwnerScope }[] = [];
  for (const [i, card] of cards.entries()) {
    const where = label(i, card.payment_method_id);
    const scope = references.customerScope(card.customer_id);
    if (!scope) {
      invalid.push(`${where}.customer_id: unknown customer`);
      continue;
    }
    const accountOwner = references.accountCustomer(card.account_id);
    if (accountOwner === undefined) {
      invalid.push(`${where}.account_id: unknown account`);
      continue;
    }
    if (accountOwner !== card.customer_id) {
      invalid.push(
        `${where}.account_id: not an account of customer ${JSON.stringify(card.customer_id)}`,
      );
      continue;
    }
    const was = stored.get(card.payment_method_id);
    if (was) {
      const moved =
        was.partner_id !== scope.partnerId ||
        was.customer_id !== card.customer_id ||
        was.account_id !== card.account_id;
      if (moved) {
        conflicts.push(`${where}: a card never moves to another customer or account`);
        continue;
      }
      if (was.network !== card.card.network || was.card_type !== card.card.card_type) {
        conflicts.push(`${where}.card: a card's network and card_type never change`);
        continue;
      }
      const conflict = await panConflict(was, card, vault);
      if (conflict) {
        conflicts.push(`${where}.card.pan: ${conflict}`);
        continue;
      }
    }
    owned.push({ card, scope });
  }
  if (invalid.length > 0 || conflicts.length > 0) return { invalid, conflicts, rows: [] };
  const rows = await Promise.all(
    owned.map(async ({ card, scope }) => ({
      card,
      scope,
      sealed: await vault.seal({ pan: card.card.pan, cvv: card.card.cvv }, card.payment_method_id),
    })),
  );
  return { invalid, conflicts, rows };
}

/** Why a re-imported card's PAN is refused, or null when it is the stored one. */
async function panConflict(
  was: StoredCard,
  card: PaymentMethodInput,
  vault: CardVault,
): Promise<string | null> {
  if (was.pan_ciphertext === null || was.cvv_ciphertext === null || was.key_id === null) {
    return null;
  }
  const secrets = await vault.open(
    { panCiphertext: was.pan_ciphertext, cvvCiphertext: was.cvv_ciphertext, keyId: was.key_id },
    was.payment_method_id,
  );
  if (secrets === null) {
    return "the stored card's data key is not configured, so its PAN cannot be compared";
  }
  return secrets.pan === card.card.pan ? null : "a card's PAN never changes";
}

const CARD_COLUMNS = [
  "payment_method_id",
  "customer_id",
  "account_id",
  "partner_id",
  "environment",
  "merchant_key",
  "type",
  "status",
  "network",
  "card_type",
  "last4",
  "expiration_month",
  "expiration_year",
  "pan_ciphertext",
  "cvv_ciphertext",
  "key_id",
] as const;

/**
 * Rows: the card in CARD_COLUMNS order; ?2 the import's instant. A re-import changes the status,
 * expiry and secrets (encrypted anew, under the current key); should another import have moved
 * the card meanwhile, its customer turns NULL and the NOT NULL constraint fails the whole batch.
 */
const UPSERT_CARDS =
  `INSERT INTO payment_methods (${CARD_COLUMNS.join(", ")}, created_at) SELECT ` +
  `${CARD_COLUMNS.map((_, i) => `value ->> ${i}`).join(", ")}, ?2 FROM json_each(?1) WHERE true ` +
  "ON CONFLICT (payment_method_id) DO UPDATE SET customer_id = CASE WHEN " +
  "payment_methods.customer_id IS excluded.customer_id AND payment_methods.account_id IS " +
  "excluded.account_id AND payment_methods.partner_id IS excluded.partner_id THEN " +
  "payment_methods.customer_id END, status = excluded.status, " +
  "expiration_month = excluded.expiration_month, expiration_year = excluded.expiration_year, " +
  "pan_ciphertext = excluded.pan_ciphertext, cvv_ciphertext = excluded.cvv_ciphertext, " +
  "key_id = excluded.key_id";

/** The constraint a concurrent move of a card trips, as SQLite names it. */
export const CARD_OWNERSHIP_GUARD = "payment_methods.customer_id";

/** The section's writes, for the import's batch (after its customers and accounts). */
export function cardWrites(db: Database, rows: readonly CardRow[], createdAt: string) {
  const statement = db.$client.prepare(UPSERT_CARDS);
  return jsonChunks(rows, ({ card, scope, sealed }) => [
    card.payment_method_id,
    card.customer_id,
    card.account_id,
    scope.partnerId,
    scope.environment,
    scope.merchantKey,
    card.type,
    card.status,
    card.card.network,
    card.card.card_type,
    card.card.last4,
    card.card.expiration_month,
    card.card.expiration_year,
    sealed.panCiphertext,
    sealed.cvvCiphertext,
    sealed.keyId,
  ]).map((chunk) => statement.bind(chunk, createdAt));
}
