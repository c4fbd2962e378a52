// The local outbox: mail kept instead of sent, read back by tests and `npm start`. It is numbered
// in the directory, which belongs to no partner; mail to a user of a partner with a jurisdiction
// is kept on that partner's shard, and the directory keeps only its number, the address's keyed
// hash and the shard's code. Local runs only: a deployment sends mail and keeps none.
import { and, asc, gt, inArray, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { outbox } from "../db/directory-schema";
import type { Shards } from "../db/shards";
import { shardOutbox } from "./schema";

export interface StoredMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: string;
}

type Mail = { to: string; subject: string; text: string; html?: string };

/** Where mail to a user of a partner with a jurisdiction is kept: its shard, and the address's hash. */
export interface KeptOnShard {
  db: Database;
  shard: string;
  recipientHash: string;
}

/** Keeps `mail`: in the directory, or (`keptOn`) on the partner's shard under the directory's number. */
export async function storeMail(
  directory: Database,
  mail: Mail,
  now: Date,
  keptOn?: KeptOnShard,
): Promise<void> {
  const createdAt = now.toISOString();
  if (!keptOn) {
    await directory.insert(outbox).values({
      recipient: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      createdAt,
    });
    return;
  }
  const [numbered] = await directory
    .insert(outbox)
    .values({
      recipient: keptOn.recipientHash,
      subject: "",
      text: "",
      createdAt,
      shard: keptOn.shard,
    })
    .returning({ id: outbox.id });
  // An INSERT of one row returns that row.
  if (!numbered) throw new Error("the outbox insert returned no row");
  await keptOn.db.insert(shardOutbox).values({
    id: numbered.id,
    recipient: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html ?? null,
    createdAt,
  });
}

/**
 * Mail after `afterId`, oldest first, to one address when given (`toHash`: its keyed hash, how the
 * directory numbers mail kept on a shard). The mail a shard keeps is read there, one round trip
 * per shard.
 */
export async function readOutbox(
  directory: Database,
  shards: Shards,
  filter: { to: string | null; toHash: string | null; afterId: number; limit: number },
): Promise<StoredMail[]> {
  const conditions: SQL[] = [gt(outbox.id, filter.afterId)];
  if (filter.to !== null) {
    const recipients = [filter.to, ...(filter.toHash === null ? [] : [filter.toHash])];
    conditions.push(inArray(outbox.recipient, recipients));
  }
  const rows = await directory
    .select()
    .from(outbox)
    .where(and(...conditions))
    .orderBy(asc(outbox.id))
    .limit(filter.limit);
  const kept = new Map<number, StoredMail>();
  const byShard = new Map<string, number[]>();
  for (const row of rows) {
    if (row.shard !== null) byShard.set(row.shard, [...(byShard.get(row.shard) ?? []), row.id]);
  }
  for (const [shard, ids] of byShard) {
    const db = shards.open(shard);
    if (!db) continue;
    const mail = await db.select().from(shardOutbox).where(inArray(shardOutbox.id, ids));
    for (const { recipient, ...rest } of mail) kept.set(rest.id, { to: recipient, ...rest });
  }
  return rows.flatMap(({ recipient, shard, ...rest }) => {
    if (shard === null) return [{ to: recipient, ...rest }];
    const mail = kept.get(rest.id);
    return mail ? [mail] : [];
  });
}
