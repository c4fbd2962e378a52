// D1 batches (D1's atomic unit) of drizzle queries and `sql` templates alike, as prepared
// statements. drizzle's own batch cannot take raw SQL with parameters (`db.run(sql)`), and the
// guarded writes of the dashboard (INSERT … SELECT … WHERE guard) are raw SQL.
import { is, SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";

const dialect = new SQLiteAsyncDialect();

/** What a batch takes: a drizzle query or a `sql` template. */
export type Query = SQL | { toSQL(): { sql: string; params: unknown[] } };

/** A prepared statement on the request's counting client, for `db.$client.batch`. */
export function prepared(db: Database, query: Query): D1PreparedStatement {
  const { sql, params } = is(query, SQL) ? dialect.sqlToQuery(query) : query.toSQL();
  return db.$client.prepare(sql).bind(...params);
}

/** Runs the statements as one atomic batch (one round trip); results in the same order. */
export function atomically(db: Database, queries: Query[]): Promise<D1Result[]> {
  return db.$client.batch(queries.map((q) => prepared(db, q)));
}
