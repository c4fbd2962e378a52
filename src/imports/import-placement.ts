// Which shard an import runs on. An import is one atomic batch, and a batch runs on one database:
// every partner the import names or reaches (through the customers, accounts and statements it
// refers to) must live on one shard, and new partners are placed there with them. A partner lives
// only on shards of its jurisdiction (fixed when it is created), so the import's partners must
// share one. Asked of every shard at once (one round trip each, in parallel): where the payload's
// ids already live, so that an id another shard's partner holds is refused, as the single
// database refused it.
import { type OwnedKind, type Owner, ownedKey, ownersOf } from "../db/find-by-id";
import type { Shards } from "../db/shards";
import type { ImportPayload } from "../domain/import-payload";
import { DEFAULT_JURISDICTION, type Jurisdiction } from "../domain/jurisdiction";
import { fixedJurisdiction, label, TAKEN } from "./import";
import { idsOf } from "./import-existing";

/** Where an import goes, or why it cannot go anywhere. */
export type Placement =
  /** Run on `shard`; `newPartners` are placed there (in the directory) before its batch. */
  | { kind: "placed"; shard: string; newPartners: string[] }
  /** 400: the payload names shards that do not exist or partners on several shards. */
  | { kind: "invalid"; problems: string[] }
  /** 409: ids of the payload belong to partners of another shard. */
  | { kind: "conflict"; problems: string[] }
  /** 503: a partner of the payload is being moved; its writes wait. */
  | { kind: "moving"; partners: string[] };

/** The shards of the deployment with their jurisdictions, for a refusal: `00 (none), 02 (eu)`. */
const shardList = (shards: Shards) =>
  shards.codes.map((code) => `${code} (${shards.jurisdiction(code)})`).join(", ");

/**
 * The shard of an import: the one shard where its existing partners live (found by id, or through
 * the parents its accounts and statements refer to), or the one its new partners name, or
 * `fallback(jurisdiction)` (the default rule among the shards of the partners' jurisdiction; null
 * when there is none) for an import that only creates partners and names no shard.
 */
export async function placeImport(
  shards: Shards,
  payload: ImportPayload,
  fallback: (jurisdiction: Jurisdiction) => Promise<string | null>,
): Promise<Placement> {
  const owners = await ownersOf(shards, {
    ...idsOf(payload),
    payment_method: new Set((payload.payment_methods ?? []).map((card) => card.payment_method_id)),
  });
  const ownersOfId = (kind: OwnedKind, id: string): Owner[] => owners.get(ownedKey(kind, id)) ?? [];

  // The partners the payload reaches, each on the shard holding it (and those a move freezes).
  const reached = new Map<string, string>();
  const frozen = new Set<string>();
  const reach = (found: readonly Owner[]) => {
    for (const owner of found) {
      reached.set(owner.partnerId, owner.shard);
      if (owner.moving) frozen.add(owner.partnerId);
    }
  };
  for (const p of payload.partners ?? []) reach(ownersOfId("partner", p.partner_id));
  for (const c of payload.customers ?? []) reach(ownersOfId("partner", c.partner_id));
  // Parents referred to but not defined here: whoever holds them is reached too.
  const customers = new Set((payload.customers ?? []).map((c) => c.customer_id));
  const accounts = new Set((payload.accounts ?? []).map((a) => a.account_id));
  for (const a of payload.accounts ?? []) {
    if (!customers.has(a.customer_id)) reach(ownersOfId("customer", a.customer_id));
  }
  for (const s of payload.statements ?? []) {
    if (!accounts.has(s.account_id)) reach(ownersOfId("account", s.account_id));
  }
  for (const card of payload.payment_methods ?? []) {
    if (!customers.has(card.customer_id)) reach(ownersOfId("customer", card.customer_id));
  }

  const invalid: string[] = [];
  // Each partner's jurisdiction: an existing one's is its shard's; a new one's, what it says.
  const jurisdictionOf = new Map<string, Jurisdiction>();
  for (const [partner, shard] of reached) jurisdictionOf.set(partner, shards.jurisdiction(shard));
  (payload.partners ?? []).forEach((p, i) => {
    const stored = jurisdictionOf.get(p.partner_id);
    if (stored === undefined) {
      jurisdictionOf.set(p.partner_id, p.jurisdiction ?? DEFAULT_JURISDICTION);
    } else if (p.jurisdiction !== undefined && p.jurisdiction !== stored) {
      const where = `${label("partners", i, p.partner_id)}.jurisdiction`;
      invalid.push(`${where}: ${fixedJurisdiction(p.partner_id, stored)}`);
    }
  });
  const named = new Map<string, string>();
  (payload.partners ?? []).forEach((p, i) => {
    if (p.shard === undefined) return;
    const where = `${label("partners", i, p.partner_id)}.shard`;
    if (!shards.codes.includes(p.shard)) {
      invalid.push(
        `${where}: no shard ${JSON.stringify(p.shard)}; shards: ${shards.codes.join(", ")}`,
      );
      return;
    }
    const lives = reached.get(p.partner_id);
    if (lives !== undefined && lives !== p.shard) {
      invalid.push(
        `${where}: partner ${JSON.stringify(p.partner_id)} lives on shard ${lives}; ` +
          "an import does not move a partner (POST /operator/v1/partners/{partner_id}/move does)",
      );
      return;
    }
    const jurisdiction = jurisdictionOf.get(p.partner_id) ?? DEFAULT_JURISDICTION;
    if (shards.jurisdiction(p.shard) !== jurisdiction) {
      invalid.push(
        `${where}: shard ${p.shard}'s jurisdiction is ` +
          `${JSON.stringify(shards.jurisdiction(p.shard))} and partner ` +
          `${JSON.stringify(p.partner_id)}'s is ${JSON.stringify(jurisdiction)}: a partner lives ` +
          `only on shards of its jurisdiction; shards: ${shardList(shards)}`,
      );
      return;
    }
    named.set(p.partner_id, p.shard);
  });
  if (invalid.length > 0) return { kind: "invalid", problems: invalid };

  // One batch runs on one shard, and a shard holds partners of one jurisdiction.
  const jurisdictions = new Set(jurisdictionOf.values());
  if (jurisdictions.size > 1) {
    const who = [...jurisdictionOf]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([partner, jurisdiction]) => `${JSON.stringify(partner)} (${jurisdiction})`)
      .join(", ");
    return {
      kind: "invalid",
      problems: [
        `the import's partners need shards of different jurisdictions: ${who}. A partner lives ` +
          "only on shards of its jurisdiction, and an import is one atomic batch on one shard: " +
          "send each jurisdiction's partners in an import of their own.",
      ],
    };
  }
  const jurisdiction = [...jurisdictions][0] ?? DEFAULT_JURISDICTION;

  const placedOn = new Map([...named, ...reached]);
  const shardsUsed = new Set(placedOn.values());
  if (shardsUsed.size > 1) {
    const who = [...placedOn]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([partner, shard]) => `${JSON.stringify(partner)} (shard ${shard})`)
      .join(", ");
    return {
      kind: "invalid",
      problems: [
        `the import reaches partners on different shards: ${who}. An import is one atomic ` +
          "batch on one shard: send each shard's partners in an import of their own.",
      ],
    };
  }
  const shard = [...shardsUsed][0] ?? (await fallback(jurisdiction));
  if (shard === null) {
    return {
      kind: "invalid",
      problems: [
        `partners: no shard of jurisdiction ${JSON.stringify(jurisdiction)} to place ` +
          `${[...jurisdictionOf.keys()].map((p) => JSON.stringify(p)).join(", ") || "the import"}` +
          ` on; shards: ${shardList(shards)}`,
      ],
    };
  }

  if (frozen.size > 0) return { kind: "moving", partners: [...frozen].sort() };

  const conflicts = foreignIds(payload, shard, ownersOfId);
  if (conflicts.length > 0) return { kind: "conflict", problems: conflicts };

  const newPartners = [...new Set((payload.partners ?? []).map((p) => p.partner_id))].filter(
    (id) => !reached.has(id),
  );
  return { kind: "placed", shard, newPartners };
}

/**
 * The payload's ids that a partner of another shard holds: an import never takes them over. Each
 * is refused in the words the shard's own review uses for an id another partner holds, so an
 * import reads the same whichever shards its partners live on.
 */
function foreignIds(
  payload: ImportPayload,
  shard: string,
  ownersOfId: (kind: OwnedKind, id: string) => Owner[],
): string[] {
  const problems: string[] = [];
  const check = (kind: OwnedKind, id: string, where: string, words: string) => {
    if (ownersOfId(kind, id).some((o) => o.shard !== shard)) problems.push(where + words);
  };
  (payload.partners ?? []).forEach((p, i) => {
    (p.products ?? []).forEach((product, j) => {
      const where = `${label("partners", i, p.partner_id)}.products[${j}]`;
      check("product", product.merchant_key, where, TAKEN.product(product.merchant_key));
    });
  });
  (payload.customers ?? []).forEach((c, i) => {
    check("customer", c.customer_id, label("customers", i, c.customer_id), TAKEN.customer);
  });
  (payload.accounts ?? []).forEach((a, i) => {
    check("account", a.account_id, label("accounts", i, a.account_id), TAKEN.account);
  });
  (payload.statements ?? []).forEach((s, i) => {
    check("statement", s.statement_id, label("statements", i, s.statement_id), TAKEN.statement);
  });
  (payload.payment_methods ?? []).forEach((card, i) => {
    const where = label("payment_methods", i, card.payment_method_id);
    check("payment_method", card.payment_method_id, where, TAKEN.card);
  });
  return problems;
}
