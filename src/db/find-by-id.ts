// Finding the shard of what the operator names by id alone (a statement, a key): every shard is
// asked at once (a fan-out, bounded), and only a partner's live copy answers: the copy a move
// left behind on its old shard does not. Ids are unique across shards (the import refuses an id
// another shard holds), so at most one shard answers.
import { jsonChunks } from "./json-rows";
import { acrossShards, type PartnerDatabase, type Shards } from "./shards";

/** Where an id was found: its shard, opened, and the partner it belongs to. */
export type Found = PartnerDatabase & { partnerId: string };

/**
 * The one live copy of the `kind` with this id (see `ownersOf`), or null. Every shard must answer
 * (an id may be on the one that does not): else ShardsUnavailableError.
 */
async function findOwner(shards: Shards, kind: OwnedKind, id: string): Promise<Found | null> {
  const owners = await ownersOf(shards, { [kind]: new Set([id]) });
  const [owner] = owners.get(ownedKey(kind, id)) ?? [];
  return owner ? { ...owner, db: shards.mustOpen(owner.shard) } : null;
}

/** The shard holding the statement (its partner's live copy), or null. */
export function findStatement(shards: Shards, statementId: string): Promise<Found | null> {
  return findOwner(shards, "statement", statementId);
}

/** The shard holding the product with this merchant key (its partner's live copy), or null. */
export function findProduct(shards: Shards, merchantKey: string): Promise<Found | null> {
  return findOwner(shards, "product", merchantKey);
}

/** The shard holding the API key with this id (its partner's live copy), or null. */
export function findKey(shards: Shards, keyId: string): Promise<Found | null> {
  return findOwner(shards, "key", keyId);
}

/** The kinds of ids whose owners a fan-out looks up: what an import may name, and keys. */
export type OwnedKind =
  | "partner"
  | "product"
  | "customer"
  | "account"
  | "statement"
  | "key"
  | "payment_method";

/** A row an id names on some shard: the partner owning it there, and whether a move freezes it. */
export interface Owner {
  shard: string;
  partnerId: string;
  moving: boolean;
}

const idsIn = (column: string) => `${column} IN (SELECT value FROM json_each(?1))`;

/** Per kind: the id, its owning partner and the partner's move state, for live copies only. */
const OWNERS: Record<OwnedKind, string> = {
  partner: `SELECT 'partner' AS kind, p.partner_id AS id, p.partner_id, p.moving_to
    FROM partners p WHERE ${idsIn("p.partner_id")}`,
  product: `SELECT 'product' AS kind, x.merchant_key AS id, x.partner_id, p.moving_to
    FROM products x JOIN partners p ON p.partner_id = x.partner_id WHERE ${idsIn("x.merchant_key")}`,
  customer: `SELECT 'customer' AS kind, x.customer_id AS id, x.partner_id, p.moving_to
    FROM customers x JOIN partners p ON p.partner_id = x.partner_id WHERE ${idsIn("x.customer_id")}`,
  account: `SELECT 'account' AS kind, x.account_id AS id, x.partner_id, p.moving_to
    FROM accounts x JOIN partners p ON p.partner_id = x.partner_id WHERE ${idsIn("x.account_id")}`,
  statement: `SELECT 'statement' AS kind, s.statement_id AS id, a.partner_id, p.moving_to
    FROM statements s JOIN accounts a ON a.account_id = s.account_id
    JOIN partners p ON p.partner_id = a.partner_id WHERE ${idsIn("s.statement_id")}`,
  key: `SELECT 'key' AS kind, k.key_id AS id, k.partner_id, p.moving_to
    FROM api_keys k JOIN partners p ON p.partner_id = k.partner_id WHERE ${idsIn("k.key_id")}`,
  payment_method: `SELECT 'payment_method' AS kind, x.payment_method_id AS id, x.partner_id,
    p.moving_to FROM payment_methods x JOIN partners p ON p.partner_id = x.partner_id
    WHERE ${idsIn("x.payment_method_id")}`,
};

/**
 * Where each of these ids lives, across every shard at once (one round trip per shard, all in
 * parallel): by kind and id, each live copy's owner. During the instant of a move's switch a
 * partner is live on two shards; its frozen copy is then left out.
 */
export async function ownersOf(
  shards: Shards,
  ids: Partial<Record<OwnedKind, ReadonlySet<string>>>,
): Promise<Map<string, Owner[]>> {
  const statements: { kind: OwnedKind; chunk: string }[] = [];
  // OWNERS is a Record<OwnedKind, …> literal: its keys are exactly the kinds.
  for (const kind of Object.keys(OWNERS) as OwnedKind[]) {
    for (const chunk of jsonChunks(ids[kind] ?? [], (id) => id)) statements.push({ kind, chunk });
  }
  const owners = new Map<string, Owner[]>();
  if (statements.length === 0) return owners;
  const results = await acrossShards(shards, async (db) => {
    const batch = statements.map(({ kind, chunk }) =>
      db.$client.prepare(`${OWNERS[kind]} AND p.moved_to IS NULL`).bind(chunk),
    );
    return db.$client.batch<{
      kind: OwnedKind;
      id: string;
      partner_id: string;
      moving_to: string | null;
    }>(batch);
  });
  for (const { shard, result } of results) {
    for (const { results: rows } of result) {
      for (const row of rows) {
        const key = ownedKey(row.kind, row.id);
        const owner = { shard, partnerId: row.partner_id, moving: row.moving_to !== null };
        owners.set(key, [...(owners.get(key) ?? []), owner]);
      }
    }
  }
  for (const [key, found] of owners) owners.set(key, liveCopies(found));
  return owners;
}

/** The key of an id of a kind in `ownersOf`'s answer. */
export function ownedKey(kind: OwnedKind, id: string): string {
  return `${kind}:${id}`;
}

/** Of the copies found, the ones not frozen by a move, when there are any. */
function liveCopies<T extends { moving: boolean }>(found: T[]): T[] {
  const live = found.filter((f) => !f.moving);
  return live.length > 0 && live.length < found.length ? live : found;
}
