// Reading and writing the directory (src/db/directory-schema.ts): where a partner lives, placing new
// partners, and the addresses dashboard users sign in with (a jurisdictional partner's by their
// keyed hash only). Only what carries no shard code asks it: the operator's calls by partner id,
// an import, a sign-in by address.
import { and, eq, isNull, sql } from "drizzle-orm";
import { FIRST_SHARD } from "../domain/shard-code";
import type { Database } from "./client";
import { partnerMoves, partnerShards, userEmailHashes, userEmails } from "./directory-schema";
import { openPartnerDatabase, type PartnerDatabase, type Shards } from "./shards";

/** Where a partner lives, as the directory says: its shard, and whether a move freezes it. */
export interface PartnerPlace {
  shard: string;
  /** A move is copying the partner's data away: its writes wait for the switch. */
  moving: boolean;
}

/** A move before its switch freezes the partner's writes. */
const FREEZING = sql`${partnerMoves.phase} IN ('copying', 'verifying')`;

/** Ids as one JSON array: one bound parameter, whatever their count. */
const idList = (ids: readonly string[]) => JSON.stringify([...new Set(ids)]);

/** The directory's places of these partners (absent: not in the directory). */
export async function placesOf(
  directory: Database,
  partnerIds: readonly string[],
): Promise<Map<string, PartnerPlace>> {
  const places = new Map<string, PartnerPlace>();
  if (partnerIds.length === 0) return places;
  const rows = await directory
    .select({
      partnerId: partnerShards.partnerId,
      shard: partnerShards.shard,
      moving: sql<number>`coalesce(${FREEZING}, 0)`,
    })
    .from(partnerShards)
    .leftJoin(
      partnerMoves,
      and(eq(partnerMoves.partnerId, partnerShards.partnerId), isNull(partnerMoves.finishedAt)),
    )
    // One bound parameter whatever the count (an import may create thousands of partners).
    .where(sql`${partnerShards.partnerId} IN (SELECT value FROM json_each(${idList(partnerIds)}))`);
  for (const row of rows) {
    places.set(row.partnerId, { shard: row.shard, moving: row.moving === 1 });
  }
  return places;
}

/**
 * Where a partner lives: the directory's shard, or (for a partner created before sharding, which
 * the directory may not list) the first shard when the partner is there. Null for an unknown
 * partner, or a shard this deployment does not bind.
 */
export async function locatePartner(
  shards: Shards,
  partnerId: string,
): Promise<PartnerDatabase | null> {
  const place = (await placesOf(shards.directory(), [partnerId])).get(partnerId);
  if (place) {
    const db = shards.open(place.shard);
    return db ? { db, shard: place.shard, moving: place.moving } : null;
  }
  return openPartnerDatabase(shards, { shard: FIRST_SHARD, partnerId });
}

/**
 * Records that these new partners live on `shard`, before any of their rows is written there
 * (a partner the batch then fails to create is found nowhere, and an import that names it again
 * places it again). Answers each partner's place after: a partner another import placed at the
 * same moment keeps that place.
 */
export async function placePartners(
  directory: Database,
  partnerIds: readonly string[],
  shard: string,
  now: Date,
): Promise<Map<string, PartnerPlace>> {
  if (partnerIds.length > 0) {
    await directory.run(
      sql`INSERT INTO partner_shards (partner_id, shard, created_at)
        SELECT value, ${shard}, ${now.toISOString()} FROM json_each(${idList(partnerIds)})
        WHERE true ON CONFLICT DO NOTHING`,
    );
  }
  return placesOf(directory, partnerIds);
}

/** How many partners each shard holds, by the directory (shards without one are absent). */
export async function partnersPerShard(directory: Database): Promise<Map<string, number>> {
  const rows = await directory
    .select({ shard: partnerShards.shard, partners: sql<number>`count(*)` })
    .from(partnerShards)
    .groupBy(partnerShards.shard);
  return new Map(rows.map((r) => [r.shard, r.partners]));
}

/**
 * The shard a new partner goes to when its import names none: among `open` shards, the one
 * holding the fewest partners (the lowest code on a tie), so that a shard added later fills
 * first.
 */
export async function defaultShard(directory: Database, open: readonly string[]): Promise<string> {
  const counts = await partnersPerShard(directory);
  let best = open[0] ?? FIRST_SHARD;
  for (const code of open) {
    if ((counts.get(code) ?? 0) < (counts.get(best) ?? 0)) best = code;
  }
  return best;
}

/**
 * How the directory lists a user's address: as it is, or, for a partner with a jurisdiction, by
 * its keyed hash alone (src/domain/address-hash.ts).
 */
export type ListedAddress = { email: string } | { emailHash: string };

/** The directory as changes to one partner's users reach it: how it lists their addresses. */
export interface PartnerDirectory {
  db: Database;
  list(email: string): Promise<ListedAddress>;
}

/** Registers a dashboard user's address for sign-in (before the user's own row is written). */
export async function addUserEmail(
  directory: Database,
  listed: ListedAddress,
  partnerId: string,
): Promise<void> {
  if ("email" in listed) {
    await directory
      .insert(userEmails)
      .values({ email: listed.email, partnerId })
      .onConflictDoNothing();
  } else {
    await directory
      .insert(userEmailHashes)
      .values({ emailHash: listed.emailHash, partnerId })
      .onConflictDoNothing();
  }
}

/** Forgets an address for a partner (after its user was removed). */
export async function removeUserEmail(
  directory: Database,
  listed: ListedAddress,
  partnerId: string,
): Promise<void> {
  if ("email" in listed) {
    await directory
      .delete(userEmails)
      .where(and(eq(userEmails.email, listed.email), eq(userEmails.partnerId, partnerId)));
  } else {
    await directory
      .delete(userEmailHashes)
      .where(
        and(
          eq(userEmailHashes.emailHash, listed.emailHash),
          eq(userEmailHashes.partnerId, partnerId),
        ),
      );
  }
}

/**
 * The partners an address is a user of, with where each lives: those listing it as it is, and
 * (with `emailHash`, its keyed hash) those of partners with a jurisdiction. One round trip.
 */
export async function membershipsOf(
  directory: Database,
  address: { email: string; emailHash: string | null },
): Promise<{ partnerId: string; shard: string }[]> {
  const { results } = await directory.$client
    .prepare(
      `SELECT e.partner_id AS partnerId, s.shard AS shard FROM user_emails e
        JOIN partner_shards s ON s.partner_id = e.partner_id WHERE e.email = ?1
      UNION
      SELECT h.partner_id AS partnerId, s.shard AS shard FROM user_email_hashes h
        JOIN partner_shards s ON s.partner_id = h.partner_id WHERE h.email_hash = ?2
      ORDER BY partnerId`,
    )
    .bind(address.email, address.emailHash)
    .all<{ partnerId: string; shard: string }>();
  return results;
}
