// The D1 handle of one request: drizzle over a D1 session that counts round trips and rows read.
//
// Read replicas: every request runs in one D1 session opened "first-primary". Its first round
// trip (the key lookup, which carries a statements page with it) reads the primary, so a revoked
// or expired key, a hidden statement or a new import is seen at once; every later round trip of
// the same request may be served by a replica, which D1 answers from only once it is at least as
// fresh as that first read (the session's bookmark). No response reflects the database older
// than its own request's first read. See docs/scale.md.
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import { storageCall, storageFailure } from "./storage";

/** Per-request storage cost, reported in the request's log line. */
export interface QueryStats {
  /** Round trips to D1; a batch counts as one. */
  roundTrips: number;
  /** Rows read, summed from each result's `meta.rows_read`. */
  rowsRead: number;
  /** Rows written, summed from each result's `meta.rows_written`. */
  rowsWritten: number;
  /** The longest round trip, as the Worker waited for it (ms): what D1's 30 s limit bounds. */
  longestMs: number;
  /** SQL time at the database, summed over statements (ms): what the request cost the primary. */
  sqlMs: number;
  /** Round trips a read replica answered (`meta.served_by_primary` false). */
  replicaTrips: number;
  /** The session's bookmark after its last round trip: the database state the response saw. */
  bookmark: string | null;
  /** Writes deferred until after the response (`waitUntil`), so not in the figures above. */
  deferredWrites: number;
}

/** drizzle over the counting client; `$client` is that client, for the prebuilt hot-path SQL. */
export type Database = DrizzleD1Database & { $client: D1Database };

function record(
  stats: QueryStats,
  session: D1DatabaseSession,
  results: readonly D1Result[],
  started: number,
): void {
  stats.roundTrips += 1;
  stats.longestMs = Math.max(stats.longestMs, performance.now() - started);
  stats.bookmark = session.getBookmark();
  if (results.some((r) => r.meta?.served_by_primary === false)) stats.replicaTrips += 1;
  for (const result of results) {
    stats.sqlMs += result.meta?.timings?.sql_duration_ms ?? result.meta?.duration ?? 0;
    stats.rowsRead += result.meta?.rows_read ?? 0;
    stats.rowsWritten += result.meta?.rows_written ?? 0;
  }
}

/**
 * A prepared statement that reports what it costs. `raw()` goes through `all()` to see `meta`, so
 * a query's selected columns must have distinct names (alias them in joins) — the same rule
 * drizzle's own D1 batch path already imposes.
 */
class CountedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly session: D1DatabaseSession,
    private readonly stats: QueryStats,
  ) {}

  bind(...values: unknown[]): CountedStatement {
    return new CountedStatement(this.inner.bind(...values), this.session, this.stats);
  }

  async all<T>(): Promise<D1Result<T>> {
    const started = performance.now();
    const result = await storageCall(() => this.inner.all<T>());
    record(this.stats, this.session, [result], started);
    return result;
  }

  run<T>(): Promise<D1Result<T>> {
    return this.all<T>();
  }

  async first<T>(column?: string): Promise<T | null> {
    const { results } = await this.all<Record<string, unknown>>();
    const row = results[0];
    if (!row) return null;
    // D1's `first<T>` leaves T to its caller, who names what its SQL selects; so does this one.
    return (column === undefined ? row : row[column]) as T;
  }

  async raw<T extends unknown[]>(): Promise<T[]> {
    const { results } = await this.all<Record<string, unknown>>();
    // As D1's `raw<T>`: the caller's T is the tuple of the columns its SQL selects, in order.
    return results.map((row) => Object.values(row) as T);
  }
}

/**
 * Wraps a session just enough for drizzle: `prepare` and `batch`. Every failure of the binding is
 * classified on the way out (db/storage.ts), so an outage is told apart from a bad statement.
 */
function countingD1(session: D1DatabaseSession, stats: QueryStats): D1Database {
  const client = {
    prepare(query: string) {
      try {
        return new CountedStatement(session.prepare(query), session, stats);
      } catch (err) {
        throw storageFailure(err);
      }
    },
    async batch(statements: CountedStatement[]) {
      const started = performance.now();
      const results = await storageCall(() => session.batch(statements.map((s) => s.inner)));
      record(stats, session, results, started);
      return results;
    },
  };
  // Only `prepare` and `batch` are ever called on it (by drizzle's D1 driver and the prebuilt
  // SQL), and a CountedStatement answers every method of a D1 statement that they call.
  return client as unknown as D1Database;
}

/** The session constraint of every request: its first round trip reads the primary. */
export const SESSION_START = "first-primary";

/** Counters at zero, for one request (or one deferred write). */
export function newQueryStats(): QueryStats {
  return {
    roundTrips: 0,
    rowsRead: 0,
    rowsWritten: 0,
    longestMs: 0,
    sqlMs: 0,
    replicaTrips: 0,
    bookmark: null,
    deferredWrites: 0,
  };
}

/**
 * A drizzle database for one request (one D1 session), and the counters it fills: `stats` when
 * given, so that every database a request opens (its shard, the directory) adds to one set.
 */
export function openDatabase(
  binding: D1Database,
  stats: QueryStats = newQueryStats(),
): { db: Database; stats: QueryStats } {
  let session: D1DatabaseSession;
  try {
    session = binding.withSession(SESSION_START);
  } catch (err) {
    throw storageFailure(err);
  }
  // No relational schema: building its metadata on every request would cost more than it gives.
  return { db: drizzle(countingD1(session, stats)), stats };
}
