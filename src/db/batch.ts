// Atomic writes: D1 batches that mix drizzle queries and `sql` templates, and inserts that happen
// only when a condition holds. drizzle's own batch cannot take a `sql` template with parameters,
// and the guarded inserts are such templates, so batches are sent here instead.
import { and, getTableColumns, is, SQL, type SQLWrapper, sql } from "drizzle-orm";
import { SQLiteAsyncDialect, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";

const dialect = new SQLiteAsyncDialect();

/** One statement of a batch: a drizzle query or a `sql` template. */
export type Query = SQL | { toSQL(): { sql: string; params: unknown[] } };

/** The query as a statement prepared on the request's counting client, ready for a batch. */
export function prepared(db: Database, query: Query): D1PreparedStatement {
  const { sql, params } = is(query, SQL) ? dialect.sqlToQuery(query) : query.toSQL();
  return db.$client.prepare(sql).bind(...params);
}

/**
 * Runs the queries as one batch: in one round trip, and all of them or none. The results come in
 * the order of the queries.
 *
 * @example
 * await atomically(db, [
 *   db.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.keyId, keyId)),
 *   sql`UPDATE api_keys SET revoked_at = ${now} WHERE parent_key_id = ${keyId}`,
 * ]);
 */
export function atomically(db: Database, queries: Query[]): Promise<D1Result[]> {
  return db.$client.batch(queries.map((q) => prepared(db, q)));
}

/**
 * drizzle's `and` of one condition or more. drizzle types its answer as possibly undefined, which
 * it is only when no condition is given; with a first one required, this one never is.
 */
export function allOf(first: SQLWrapper, ...rest: (SQLWrapper | undefined)[]): SQL {
  const all = and(first, ...rest);
  if (!all) throw new Error("and() of a condition gave none");
  return all;
}

/**
 * An insert of one row that happens only when `guard` holds: `INSERT … SELECT … WHERE guard`.
 * The guard, such as a limit not yet reached or a parent row still live, is checked in the same
 * statement, so no concurrent request can change the answer in between. Values are keyed by the
 * table's field names, and a value may be SQL that the statement evaluates.
 *
 * @example
 * const [inserted] = await atomically(db, [
 *   insertWhere(webhookEndpoints, row, sql`(SELECT count(*) FROM webhook_endpoints
 *     WHERE partner_id = ${row.partnerId}) < ${MAX_ENDPOINTS}`),
 * ]);
 * if (inserted?.meta.changes === 0) throw new ApiError("CONFLICT_ERROR", "Too many endpoints.");
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

/**
 * The first row a statement of a batch answered (a SELECT of the whole row, or `RETURNING *`), as
 * drizzle's select of `table` answers it; null when it answered none. D1 answers a batch's rows by
 * column name, undecoded.
 */
export function returnedRow<T extends SQLiteTable>(
  table: T,
  result: D1Result | undefined,
): T["$inferSelect"] | null {
  // D1 answers each row as an object keyed by column name.
  const [raw] = (result?.results ?? []) as Record<string, unknown>[];
  if (!raw) return null;
  const columns: Record<string, SQLiteColumn> = getTableColumns(table);
  // Every column of the table, decoded as drizzle decodes it: the row its own select answers.
  return Object.fromEntries(
    Object.entries(columns).map(([field, column]) => {
      const value = raw[column.name];
      return [
        field,
        value === null || value === undefined ? null : column.mapFromDriverValue(value),
      ];
    }),
  ) as T["$inferSelect"];
}

/**
 * The value of column `name` in the first row a statement of a batch answered (a computed column,
 * or one column of `RETURNING`); undefined when it answered no row or no such column.
 */
export function returnedValue(result: D1Result | undefined, name: string): unknown {
  const row: unknown = result?.results[0];
  if (typeof row !== "object" || row === null) return undefined;
  return Object.getOwnPropertyDescriptor(row, name)?.value;
}
