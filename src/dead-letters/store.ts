// Dead letters in D1, on each shard: stored by the dead-letter queues' consumer (a message
// delivered twice is stored once), listed newest first by id, taken for a re-drive oldest first,
// deleted once re-driven or discarded, and purged after 30 days.
import { and, asc, desc, eq, gt, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { type DeadLetterQueue, deadLetters } from "./schema";

export type DeadLetterRow = typeof deadLetters.$inferSelect;

/** How long a dead letter is kept when nobody re-drives or discards it. */
export const DEAD_LETTER_RETENTION_DAYS = 30;

/** Which dead letters a listing or a re-drive is about. */
export interface DeadLetterFilter {
  queue?: DeadLetterQueue;
  partnerId?: string;
  /** These ids only. */
  ids?: readonly string[];
  /** Those after this id only. */
  after?: string | null;
}

function conditions(filter: DeadLetterFilter): SQL[] {
  const where: SQL[] = [];
  if (filter.queue) where.push(eq(deadLetters.queue, filter.queue));
  if (filter.partnerId !== undefined) where.push(eq(deadLetters.partnerId, filter.partnerId));
  if (filter.ids) where.push(inArray(deadLetters.deadLetterId, [...filter.ids]));
  if (filter.after) where.push(gt(deadLetters.deadLetterId, filter.after));
  return where;
}

/** Stores dead letters; one stored before (the same message delivered again) is left as it is. */
export async function storeDeadLetters(db: Database, rows: readonly DeadLetterRow[]) {
  if (rows.length === 0) return;
  const [first, ...rest] = rows.map((row) =>
    db.insert(deadLetters).values(row).onConflictDoNothing(),
  );
  if (first) await db.batch([first, ...rest]);
}

/** Up to `limit` dead letters of the filter, newest first, older than `before` when given. */
export function readDeadLetters(
  db: Database,
  filter: DeadLetterFilter,
  before: string | null,
  limit: number,
): Promise<DeadLetterRow[]> {
  const where = conditions(filter);
  if (before !== null) where.push(lt(deadLetters.deadLetterId, before));
  return db
    .select()
    .from(deadLetters)
    .where(and(...where))
    .orderBy(desc(deadLetters.deadLetterId))
    .limit(limit);
}

/** Up to `limit` dead letters of the filter, oldest first: the next ones to re-drive. */
export function oldestDeadLetters(
  db: Database,
  filter: DeadLetterFilter,
  limit: number,
): Promise<DeadLetterRow[]> {
  return db
    .select()
    .from(deadLetters)
    .where(and(...conditions(filter)))
    .orderBy(asc(deadLetters.deadLetterId))
    .limit(limit);
}

/** Deletes dead letters by id; answers how many went. */
export async function deleteDeadLetters(db: Database, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const gone = await db
    .delete(deadLetters)
    .where(inArray(deadLetters.deadLetterId, [...ids]))
    .returning({ id: deadLetters.deadLetterId });
  return gone.length;
}

/** Deletes up to `limit` dead letters that died before `before` (their ids say when). */
export async function purgeExpiredDeadLetters(
  db: Database,
  beforeId: string,
  limit: number,
): Promise<number> {
  const gone = await db
    .delete(deadLetters)
    .where(
      sql`${deadLetters.deadLetterId} IN (SELECT dead_letter_id FROM dead_letters
        WHERE dead_letter_id < ${beforeId} ORDER BY dead_letter_id LIMIT ${limit})`,
    )
    .returning({ id: deadLetters.deadLetterId });
  return gone.length;
}
