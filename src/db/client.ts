// The database handle of one request: drizzle over one D1 session that counts the request's round
// trips and the rows they read and write.
//
// Every request runs in one D1 session opened "first-primary". Its first round trip, the key
// lookup, reads the primary database, so a key just revoked or a statement just imported is seen
// at once. Later round trips of the same request may be served by a read replica, but D1 answers
// from one only once it has caught up with that first read. So no response shows the database as
// it was before its own request began. docs/scale.md says more.
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import { storageCall, storageFailure } from "./storage";

/** What a request cost the database, reported in the request's log line. */
export interface QueryStats {
  /** Round trips to D1, where a batch counts as one. */
  roundTrips: number;
  rowsRead: number;
  rowsWritten: number;
  /** The longest round trip in milliseconds, the figure to watch against D1's 30-second limit. */
  longestMs: number;
  /** The time the database spent running the request's SQL, in milliseconds. */
  sqlMs: number;
  /** The round trips that a read replica answered rather than the primary. */
  replicaTrips: number;
  /** The session's bookmark after its last round trip: the database state the response saw. */
  bookmark: string | null;
  /** Writes put off until after the response (`waitUntil`), which the figures above leave out. */
  deferredWrites: number;
}

/**
 * A drizzle database whose queries are counted. `$client` is the counting client itself, for the
 * few queries on the hot path that are written as SQL ahead of time rather than built by drizzle.
 */
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
 * A prepared statement that reports what it costs. `raw()` is answered through `all()`, because
 * only `all()` returns the `meta` the figures come from. So the columns a query selects must have
 * distinct names (alias them in joins), which drizzle's own D1 batches require already.
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
 * A D1 client over `session` with just what drizzle calls, `prepare` and `batch`, each counted.
 * Every failure of the binding is classified on its way out (db/storage.ts), so that an outage is
 * told apart from a faulty statement.
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

/** How every request's session starts: its first round trip reads the primary database. */
export const SESSION_START = "first-primary";

/** Figures at zero, for one request or for the writes it puts off until after its response. */
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
 * Opens a drizzle database over one new D1 session of `binding`, and returns the figures it fills.
 * Pass the request's own `stats` so that every database it opens, its shard and the directory,
 * adds to one set of figures.
 *
 * @example
 * const { db, stats } = openDatabase(env.DB_00);
 * const rows = await db.select().from(partners).where(eq(partners.partnerId, partnerId));
 * console.log(`${stats.roundTrips} round trip(s), ${stats.rowsRead} row(s) read`);
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
  // Without drizzle's relational schema: building its metadata on every request costs more time
  // than its queries would save.
  return { db: drizzle(countingD1(session, stats)), stats };
}
