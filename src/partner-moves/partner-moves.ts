// Moving a partner from one shard to another, online: freeze, copy, verify, switch, retire.
//
// - Freeze: the partner's rows on the source shard are fenced (move_fences, and triggers that
//   refuse every write to a fenced partner's rows), and its row says where it is going
//   (`moving_to`): its writes answer 503 with Retry-After until the switch, its reads are served
//   from the source throughout.
// - Copy: table by table (src/shards/partner-tables.ts, parents first), in bounded chunks by rowid.
//   The copy's partner row forwards to the source (`moved_to`), so nothing that names the target
//   (a key of an earlier stay there) reads a partial copy.
// - Verify: per table, each side's row count and a content hash (SHA-256, chained over the rows
//   in rowid order); a mismatch starts the copy again.
// - Switch: the copy goes live (frozen a moment more), the source's partner row forwards to it,
//   the directory points at it, then the copy takes writes. Keys, sessions and sign-in links that
//   name the source keep working through the forward (its rows are kept: one round trip more per
//   request); PDF links that name it keep being served until they expire.
// - Retire: an hour after the switch (when every PDF link naming the source has expired), the
//   source's copy is deleted, except the partner row and its credentials, which forward.
//
// One call of `stepMove` does a bounded amount of this and answers where the move stands; the
// operator route calls it again until the move is done.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { partnerMoves, partnerShards } from "../db/directory-schema";
import { partners } from "../db/schema";
import type { Shards } from "../db/shards";
import { PARTNER_MOVING } from "../db/storage";
import { toHex } from "../domain/encoding";
import { LINK_LIFETIME_MS } from "../domain/statement-link";
import { abortsAt, frozenTooLong, MAX_FROZEN_TEXT } from "./move-limits";
import { PARTNER_TABLES, type PartnerTable } from "./partner-tables";
import { moveFences } from "./schema";

export type MoveRow = typeof partnerMoves.$inferSelect;

/** Per table: rows copied, and each side's count and hash once verified. */
export type MoveTables = Record<
  string,
  {
    copied: number;
    source?: { rows: number; hash: string };
    target?: { rows: number; hash: string };
  }
>;

/** Rows one copy statement batch carries, and rows one call copies at most. */
const CHUNK_ROWS = 200;
export const ROWS_PER_CALL = 20_000;
/** Copies tried before a move whose copy never verifies is aborted. */
const MAX_ATTEMPTS = 3;
/** How long one call holds the move. */
const LEASE_MS = 60_000;

/** The triggers that refuse writes to a fenced partner's rows on its source shard. */
function fenceTriggers(): string[] {
  const triggers: string[] = [];
  for (const t of PARTNER_TABLES) {
    const fenced = (row: string, phases: string) =>
      `EXISTS (SELECT 1 FROM move_fences f WHERE f.partner_id = ${t.partnerOf(row)}${phases})`;
    const raise = `BEGIN SELECT RAISE(ABORT, '${PARTNER_MOVING}'); END`;
    // The move's own update of the partner row (moving_to, moved_to) passes.
    const updated = t.name === "partners" ? ` OF ${t.columns.join(", ")}` : "";
    triggers.push(
      `CREATE TRIGGER IF NOT EXISTS move_fence_${t.name}_insert BEFORE INSERT ON ${t.name} ` +
        `WHEN ${fenced("NEW", "")} ${raise}`,
      `CREATE TRIGGER IF NOT EXISTS move_fence_${t.name}_update BEFORE UPDATE${updated} ` +
        `ON ${t.name} WHEN ${fenced("OLD", "")} ${raise}`,
      // Retiring, the move deletes the old copy itself.
      `CREATE TRIGGER IF NOT EXISTS move_fence_${t.name}_delete BEFORE DELETE ON ${t.name} ` +
        `WHEN ${fenced("OLD", " AND f.phase = 'frozen'")} ${raise}`,
    );
  }
  return triggers;
}

const dropTriggers = () =>
  PARTNER_TABLES.flatMap((t) =>
    ["insert", "update", "delete"].map((op) => `DROP TRIGGER IF EXISTS move_fence_${t.name}_${op}`),
  );

/** Runs raw statements as one batch (each bound to `values`). */
async function run(db: Database, statements: string[], values: unknown[][] = []): Promise<void> {
  if (statements.length === 0) return;
  await db.$client.batch(
    statements.map((text, i) => db.$client.prepare(text).bind(...(values[i] ?? []))),
  );
}

/** Deletes the partner's rows of `tables` on `db`, children first. */
async function deleteRows(db: Database, partnerId: string, tables: readonly PartnerTable[]) {
  const reversed = [...tables].reverse();
  await run(
    db,
    reversed.map((t) => `DELETE FROM ${t.name} WHERE ${t.belongs(t.name)}`),
    reversed.map(() => [partnerId]),
  );
}

export type StartOutcome =
  | { kind: "started"; move: MoveRow }
  | { kind: "busy"; move: MoveRow }
  /** Another partner's move off the same shard is not finished: one at a time per shard. */
  | { kind: "source-busy" }
  | { kind: "same-shard" };

/**
 * Starts moving `partnerId` from shard `from` to shard `to` (both opened), or answers the move
 * already open for the partner.
 */
export async function startMove(
  shards: Shards,
  at: { partnerId: string; from: string; to: string },
  now: Date,
): Promise<StartOutcome> {
  if (at.from === at.to) return { kind: "same-shard" };
  const directory = shards.directory();
  const open = await openMove(directory, at.partnerId);
  if (open) return { kind: "busy", move: open };
  const moveId = `mv_${crypto.randomUUID().replaceAll("-", "")}`;
  const [created] = await directory
    .insert(partnerMoves)
    .values({
      moveId,
      partnerId: at.partnerId,
      fromShard: at.from,
      toShard: at.to,
      phase: "copying",
      startedAt: now.toISOString(),
    })
    .onConflictDoNothing()
    .returning();
  if (!created) {
    const other = await openMove(directory, at.partnerId);
    return other ? { kind: "busy", move: other } : { kind: "source-busy" };
  }
  const source = shards.mustOpen(at.from);
  // Freeze: from here nothing the partner writes lands on the source.
  const triggers = fenceTriggers();
  await run(
    source,
    [
      ...triggers,
      "INSERT OR REPLACE INTO move_fences (partner_id, phase, created_at) VALUES (?, 'frozen', ?)",
      "UPDATE partners SET moving_to = ? WHERE partner_id = ?",
    ],
    [...triggers.map(() => []), [at.partnerId, now.toISOString()], [at.to, at.partnerId]],
  );
  // Rows an earlier stay on the target left there (a forward) make way for the copy.
  await deleteRows(shards.mustOpen(at.to), at.partnerId, PARTNER_TABLES);
  return { kind: "started", move: created };
}

/** The partner's unfinished move, if any. */
export async function openMove(directory: Database, partnerId: string): Promise<MoveRow | null> {
  const [row] = await directory
    .select()
    .from(partnerMoves)
    .where(and(eq(partnerMoves.partnerId, partnerId), isNull(partnerMoves.finishedAt)));
  return row ?? null;
}

/** The partner's latest move, finished or not. */
export async function latestMove(directory: Database, partnerId: string): Promise<MoveRow | null> {
  const [row] = await directory
    .select()
    .from(partnerMoves)
    .where(eq(partnerMoves.partnerId, partnerId))
    .orderBy(sql`${partnerMoves.startedAt} DESC`)
    .limit(1);
  return row ?? null;
}

/** Takes the move for one call; null when another call holds it. */
async function lease(directory: Database, moveId: string, now: Date): Promise<MoveRow | null> {
  const [row] = await directory
    .update(partnerMoves)
    .set({ leaseUntil: new Date(now.getTime() + LEASE_MS).toISOString() })
    .where(
      and(
        eq(partnerMoves.moveId, moveId),
        isNull(partnerMoves.finishedAt),
        sql`(${partnerMoves.leaseUntil} IS NULL OR ${partnerMoves.leaseUntil} < ${now.toISOString()})`,
      ),
    )
    .returning();
  return row ?? null;
}

async function save(directory: Database, moveId: string, changes: Partial<MoveRow>) {
  const [row] = await directory
    .update(partnerMoves)
    .set(changes)
    .where(eq(partnerMoves.moveId, moveId))
    .returning();
  if (!row) throw new Error(`move ${moveId} is gone`);
  return row;
}

/**
 * Does the next bounded part of the move (copying `maxRows` rows at most) and answers where it
 * stands (null when another call is working on it).
 */
export async function stepMove(
  shards: Shards,
  moveId: string,
  now: Date,
  maxRows = ROWS_PER_CALL,
): Promise<MoveRow | null> {
  const directory = shards.directory();
  let move = await lease(directory, moveId, now);
  if (!move) return null;
  const step: MoveStep = {
    shards,
    directory,
    source: shards.mustOpen(move.fromShard),
    target: shards.mustOpen(move.toShard),
    // Only this module writes `tables`, always as JSON.stringify of a MoveTables.
    tables: JSON.parse(move.tables) as MoveTables,
    now,
  };
  if (frozenTooLong(move, now)) move = await abortFrozen(step, move);
  if (move.phase === "copying") move = await copyRows(step, move, maxRows);
  if (move.phase === "verifying") move = await verifyCopy(step, move);
  if (move.phase === "switched" && move.retireAfter && move.retireAfter <= now.toISOString()) {
    await retire(step.source, move.partnerId);
    move = await save(directory, moveId, { phase: "done", finishedAt: now.toISOString() });
  }
  return save(directory, moveId, { leaseUntil: null });
}

/** What one step of a move works with: the directory, the two shards and the copy's figures. */
interface MoveStep {
  shards: Shards;
  directory: Database;
  source: Database;
  target: Database;
  tables: MoveTables;
  now: Date;
}

/** Copies up to `budget` rows, chunk by chunk, table by table; past the last table, verifies. */
async function copyRows(step: MoveStep, move: MoveRow, budget: number): Promise<MoveRow> {
  const { directory, tables } = step;
  while (move.phase === "copying" && budget > 0) {
    const table = PARTNER_TABLES[move.tableIndex];
    if (!table) {
      return save(directory, move.moveId, { phase: "verifying", tableIndex: 0, cursor: 0 });
    }
    const rows = Math.min(CHUNK_ROWS, budget);
    const copied = await copyChunk(step.source, step.target, table, move, rows);
    budget -= copied.rows;
    const entry = tables[table.name] ?? { copied: 0 };
    entry.copied += copied.rows;
    tables[table.name] = entry;
    move = await save(
      directory,
      move.moveId,
      copied.done
        ? { tableIndex: move.tableIndex + 1, cursor: 0, tables: JSON.stringify(tables) }
        : { cursor: copied.cursor, tables: JSON.stringify(tables) },
    );
  }
  return move;
}

/**
 * Compares every table's rows on both shards: when they match, the partner switches over; when
 * they do not, the copy starts again, or after the last attempt the move is aborted.
 */
async function verifyCopy(step: MoveStep, move: MoveRow): Promise<MoveRow> {
  const { directory, tables, now } = step;
  const mismatched: string[] = [];
  for (const table of PARTNER_TABLES) {
    const [from, to] = await Promise.all([
      digest(step.source, table, move.partnerId),
      digest(step.target, table, move.partnerId),
    ]);
    const entry = tables[table.name] ?? { copied: 0 };
    tables[table.name] = { ...entry, source: from, target: to };
    if (from.rows !== to.rows || from.hash !== to.hash) mismatched.push(table.name);
  }
  if (mismatched.length === 0) {
    await switchOver(step.shards, move, now);
    return save(directory, move.moveId, {
      phase: "switched",
      tables: JSON.stringify(tables),
      switchedAt: now.toISOString(),
      retireAfter: new Date(now.getTime() + LINK_LIFETIME_MS).toISOString(),
    });
  }
  if (move.attempt >= MAX_ATTEMPTS) {
    await abort(step.shards, move);
    return save(directory, move.moveId, {
      phase: "aborted",
      tables: JSON.stringify(tables),
      finishedAt: now.toISOString(),
      error: `the copy did not verify: ${mismatched.join(", ")}`,
    });
  }
  // Something differs: copy it all again.
  await deleteRows(step.target, move.partnerId, PARTNER_TABLES);
  for (const entry of Object.values(tables)) entry.copied = 0;
  return save(directory, move.moveId, {
    phase: "copying",
    tableIndex: 0,
    cursor: 0,
    attempt: move.attempt + 1,
    tables: JSON.stringify(tables),
  });
}

/**
 * Copies the next chunk of `table`'s rows of the partner (after the move's cursor); answers the
 * rows copied, the new cursor, and whether the table is done.
 */
async function copyChunk(
  source: Database,
  target: Database,
  table: PartnerTable,
  move: MoveRow,
  limit: number,
): Promise<{ rows: number; cursor: number; done: boolean }> {
  const columns = table.columns;
  const { results } = await source.$client
    .prepare(
      `SELECT rowid AS _rowid, ${columns.join(", ")} FROM ${table.name} ` +
        `WHERE ${table.belongs(table.name)} AND rowid > ?2 ORDER BY rowid LIMIT ?3`,
    )
    .bind(move.partnerId, move.cursor, limit)
    .all<Record<string, unknown>>();
  if (results.length > 0) {
    // The copy's partner row forwards to the source until the switch.
    const forward = table.name === "partners";
    const names = forward ? [...columns, "moved_to"] : columns;
    const insert = `INSERT INTO ${table.name} (${names.join(", ")}) VALUES (${names
      .map(() => "?")
      .join(", ")})`;
    await target.$client.batch(
      results.map((row) =>
        target.$client
          .prepare(insert)
          .bind(...columns.map((c) => row[c] ?? null), ...(forward ? [move.fromShard] : [])),
      ),
    );
  }
  const last = results.at(-1)?._rowid;
  return {
    rows: results.length,
    cursor: typeof last === "number" ? last : move.cursor,
    done: results.length < limit,
  };
}

/** A table's rows of the partner on one shard: their count and a hash of their content. */
async function digest(
  db: Database,
  table: PartnerTable,
  partnerId: string,
): Promise<{ rows: number; hash: string }> {
  let hash = "";
  let rows = 0;
  let after = 0;
  for (;;) {
    const { results } = await db.$client
      .prepare(
        `SELECT rowid AS _rowid, ${table.columns.join(", ")} FROM ${table.name} ` +
          `WHERE ${table.belongs(table.name)} AND rowid > ?2 ORDER BY rowid LIMIT 1000`,
      )
      .bind(partnerId, after)
      .all<Record<string, unknown>>();
    if (results.length === 0) break;
    const text = results.map((r) => JSON.stringify(table.columns.map((c) => r[c]))).join("\n");
    const bytes = new TextEncoder().encode(`${hash}\n${text}`);
    hash = toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
    rows += results.length;
    // The query selects `rowid AS _rowid`, an integer, and the page is not empty.
    after = results.at(-1)?._rowid as number;
    if (results.length < 1000) break;
  }
  return { rows, hash };
}

/**
 * The copy becomes the partner's: live on the target (frozen a moment more), forwarded to from
 * the source and from any older forward, the directory's entry, then open to writes.
 */
async function switchOver(shards: Shards, move: MoveRow, now: Date): Promise<void> {
  const source = shards.mustOpen(move.fromShard);
  const target = shards.mustOpen(move.toShard);
  const { partnerId, toShard } = move;
  await target
    .update(partners)
    .set({ movedTo: null, movingTo: toShard })
    .where(eq(partners.partnerId, partnerId));
  await run(
    source,
    [
      "UPDATE partners SET moved_to = ?, moving_to = NULL WHERE partner_id = ?",
      "UPDATE move_fences SET phase = 'retiring' WHERE partner_id = ?",
    ],
    [[toShard, partnerId], [partnerId]],
  );
  // Forwards an earlier move left on other shards point straight at the new home.
  for (const code of shards.codes) {
    if (code === move.fromShard || code === toShard) continue;
    await shards
      .mustOpen(code)
      .update(partners)
      .set({ movedTo: toShard })
      .where(and(eq(partners.partnerId, partnerId), sql`${partners.movedTo} IS NOT NULL`));
  }
  await shards
    .directory()
    .update(partnerShards)
    .set({ shard: toShard, movedAt: now.toISOString() })
    .where(eq(partnerShards.partnerId, partnerId));
  await target.update(partners).set({ movingTo: null }).where(eq(partners.partnerId, partnerId));
}

/**
 * Aborts a move that kept its partner frozen past the limit, and raises an alert: the operator
 * learns of it even when nobody was stepping the move.
 */
async function abortFrozen(step: MoveStep, move: MoveRow): Promise<MoveRow> {
  await abort(step.shards, move);
  const error =
    `the partner was frozen for more than ${MAX_FROZEN_TEXT} (since ${move.startedAt}) ` +
    "without switching: aborted so that its writes resume";
  console.error(
    JSON.stringify({
      partner_moves: "aborted",
      alert: true,
      move_id: move.moveId,
      partner_id: move.partnerId,
      from_shard: move.fromShard,
      to_shard: move.toShard,
      phase: move.phase,
      started_at: move.startedAt,
      reason: error,
    }),
  );
  return save(step.directory, move.moveId, {
    phase: "aborted",
    tables: JSON.stringify(step.tables),
    finishedAt: step.now.toISOString(),
    error,
  });
}

/** The move gives up: the source takes writes again, the partial copy is deleted. */
async function abort(shards: Shards, move: MoveRow): Promise<void> {
  const source = shards.mustOpen(move.fromShard);
  await deleteRows(shards.mustOpen(move.toShard), move.partnerId, PARTNER_TABLES);
  await run(
    source,
    [
      "DELETE FROM move_fences WHERE partner_id = ?",
      "UPDATE partners SET moving_to = NULL WHERE partner_id = ?",
    ],
    [[move.partnerId], [move.partnerId]],
  );
  await dropFenceWhenIdle(source);
}

/** Deletes the source's old copy, keeping the partner row and credentials that forward. */
async function retire(source: Database, partnerId: string): Promise<void> {
  await deleteRows(
    source,
    partnerId,
    PARTNER_TABLES.filter((t) => !t.forwards),
  );
  await source.delete(moveFences).where(eq(moveFences.partnerId, partnerId));
  await dropFenceWhenIdle(source);
}

/** Drops the fence triggers once no move runs on the shard. */
async function dropFenceWhenIdle(db: Database): Promise<void> {
  const [left] = await db.select({ n: sql<number>`count(*)` }).from(moveFences);
  if ((left?.n ?? 0) === 0) await run(db, dropTriggers());
}

/** What the operator API shows of a move, at `now`. */
export function moveView(move: MoveRow, now: Date) {
  // Only this module writes `tables`, always as JSON.stringify of a MoveTables.
  const tables = JSON.parse(move.tables) as MoveTables;
  return {
    move_id: move.moveId,
    partner_id: move.partnerId,
    from_shard: move.fromShard,
    to_shard: move.toShard,
    phase: move.phase,
    attempt: move.attempt,
    rows_copied: Object.values(tables).reduce((n, t) => n + t.copied, 0),
    tables: Object.fromEntries(
      Object.entries(tables).map(([name, t]) => [
        name,
        {
          copied: t.copied,
          ...(t.source ? { source: t.source, target: t.target } : {}),
        },
      ]),
    ),
    started_at: move.startedAt,
    // How long it has run (until it finished), and, while it freezes its partner, when it will
    // be aborted if it has not switched by then.
    age_seconds: Math.max(
      0,
      Math.floor(
        (Date.parse(move.finishedAt ?? now.toISOString()) - Date.parse(move.startedAt)) / 1000,
      ),
    ),
    aborts_at: move.finishedAt === null ? (abortsAt(move)?.toISOString() ?? null) : null,
    switched_at: move.switchedAt,
    retire_after: move.retireAfter,
    finished_at: move.finishedAt,
    error: move.error,
  };
}
