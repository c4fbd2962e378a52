// D1 batches (D1's atomic unit) of drizzle queries and `sql` templates alike, as prepared
// statements, and guarded inserts for them and the conditions that guard them. drizzle's own batch
// cannot take raw SQL with parameters (`db.run(sql)`), and the guarded writes of the dashboard
// (INSERT … SELECT … WHERE guard) are raw SQL.
import { and, getTableColumns, is, SQL, type SQLWrapper, sql } from "drizzle-orm";
import { SQLiteAsyncDialect, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
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

/**
 * drizzle's `and` of one condition or more, typed as the condition it then always is: `and` gives
 * undefined only when none of its conditions is defined.
 */
export function allOf(first: SQLWrapper, ...rest: (SQLWrapper | undefined)[]): SQL {
  const all = and(first, ...rest);
  if (!all) throw new Error("and() of a condition gave none");
  return all;
}

/**
 * `INSERT INTO table (…) SELECT … WHERE guard`: the row is stored only when `guard` holds, checked
 * in the same statement (a limit, a live parent), so nothing concurrent slips in between. Values
 * are keyed by the table's field names; a value may be SQL, evaluated in the statement.
 */
export function insertWhere<T extends SQLiteTable>(
  table: T,
  values: { [K in keyof T["$inferInsert"]]?: unknown },
  guard: SQL,
): SQL {
  const columns: Record<string, SQLiteColumn | undefined> = getTableColumns(table);
  const fields = Object.entries(values);
  const names = fields.map(([field]) => {
    const column = columns[field];
    if (!column) throw new Error(`no column for ${field}`);
    return sql.identifier(column.name);
  });
  const selected = fields.map(([, value]) => (is(value, SQL) ? value : sql`${value ?? null}`));
  return sql`INSERT INTO ${table} (${sql.join(names, sql`, `)})
    SELECT ${sql.join(selected, sql`, `)} WHERE ${guard}`;
}
