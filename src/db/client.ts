// The D1 handle of one request: drizzle over a D1 binding that counts round trips and rows read.
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import { storageCall, storageFailure } from "./storage";

/** Per-request storage cost, reported in the request's log line. */
export interface QueryStats {
  /** Round trips to D1; a batch counts as one. */
  roundTrips: number;
  /** Rows read, summed from each result's `meta.rows_read`. */
  rowsRead: number;
  /** Writes deferred until after the response (`waitUntil`), so not in the figures above. */
  deferredWrites: number;
}

/** drizzle over the counting client; `$client` is that client, for the prebuilt hot-path SQL. */
export type Database = DrizzleD1Database & { $client: D1Database };

function record(stats: QueryStats, results: readonly D1Result[]): void {
  stats.roundTrips += 1;
  for (const result of results) stats.rowsRead += result.meta?.rows_read ?? 0;
}

/**
 * A prepared statement that reports what it costs. `raw()` goes through `all()` to see `meta`, so
 * a query's selected columns must have distinct names (alias them in joins) — the same rule
 * drizzle's own D1 batch path already imposes.
 */
class CountedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly stats: QueryStats,
  ) {}

  bind(...values: unknown[]): CountedStatement {
    return new CountedStatement(this.inner.bind(...values), this.stats);
  }

  async all<T>(): Promise<D1Result<T>> {
    const result = await storageCall(() => this.inner.all<T>());
    record(this.stats, [result]);
    return result;
  }

  run<T>(): Promise<D1Result<T>> {
    return this.all<T>();
  }

  async first<T>(column?: string): Promise<T | null> {
    const { results } = await this.all<Record<string, unknown>>();
    const row = results[0];
    if (!row) return null;
    return (column === undefined ? row : row[column]) as T;
  }

  async raw<T extends unknown[]>(): Promise<T[]> {
    const { results } = await this.all<Record<string, unknown>>();
    return results.map((row) => Object.values(row) as T);
  }
}

/**
 * Wraps the binding just enough for drizzle: `prepare` and `batch`. Every failure of the binding
 * is classified on the way out (db/storage.ts), so an outage is told apart from a bad statement.
 */
function countingD1(db: D1Database, stats: QueryStats): D1Database {
  const client = {
    prepare(query: string) {
      try {
        return new CountedStatement(db.prepare(query), stats);
      } catch (err) {
        throw storageFailure(err);
      }
    },
    async batch(statements: CountedStatement[]) {
      const results = await storageCall(() => db.batch(statements.map((s) => s.inner)));
      record(stats, results);
      return results;
    },
  };
  return client as unknown as D1Database;
}

/** A drizzle database for one request, and the counters it fills. */
export function openDatabase(binding: D1Database): { db: Database; stats: QueryStats } {
  const stats: QueryStats = { roundTrips: 0, rowsRead: 0, deferredWrites: 0 };
  // No relational schema: building its metadata on every request would cost more than it gives.
  return { db: drizzle(countingD1(binding, stats)), stats };
}
