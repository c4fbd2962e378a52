// A page of rows as one JSON array in one cell, so that it can ride in the key lookup's statement
// as one more column (see `keyLookup`), and D1 sends and the Worker parses a single value instead
// of a row per object.
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/**
 * One row as a JSON object of `columns`, keyed by their property names, so that it parses into
 * the row type drizzle would have read; a JSON-mode column is nested as its JSON value.
 */
export function jsonObjectOf(columns: Record<string, SQLiteColumn>): SQL<string> {
  const pairs = Object.entries(columns).map(([name, column]) => {
    // Property names are the schema's own identifiers, never request input.
    const key = sql.raw(`'${name}'`);
    return column.columnType === "SQLiteTextJson"
      ? sql`${key}, json(${column})`
      : sql`${key}, ${column}`;
  });
  return sql<string>`json_object(${sql.join(pairs, sql`, `)})`;
}

/**
 * The rows `page` selects, each a JSON object in its one column `row`, as one JSON array. SQL does
 * not promise the aggregate the subquery's order: the reader sorts the page again.
 */
export function pageAsJson(page: SQL | { getSQL(): SQL }): SQL<string> {
  // json(): the subquery hands the aggregate each object as text.
  return sql<string>`(SELECT json_group_array(json(row)) FROM (${page}))`;
}
