// Id-based pagination, shared by every list endpoint except statements (which use signed tokens).
import { invalidRequest } from "../app/errors";
import { parseLimit } from "./list-params";

/** Longer than any id the service stores; keeps a hostile cursor out of the query. */
const MAX_ID_LENGTH = 1024;

export interface IdPageRequest {
  limit: number;
  /** The id the page starts after (exclusive), or null for the first page. */
  after: string | null;
}

/**
 * `limit` (1..100, default 10) and `starting_after=<id>`. The cursor is a position in id order,
 * not a lookup: the page holds the objects whose ids sort after it, so a cursor whose object has
 * gone, or that names nothing at all, still pages on without skipping anything.
 */
export function parseIdPage(query: (name: string) => string[] | undefined): IdPageRequest {
  const limit = parseLimit(query("limit"));
  const values = query("starting_after");
  if (values === undefined) return { limit, after: null };
  const [value] = values;
  if (values.length !== 1 || !value || value.length > MAX_ID_LENGTH) {
    throw invalidRequest(
      [`starting_after must be a single object id of 1 to ${MAX_ID_LENGTH} characters`],
      "starting_after",
    );
  }
  return { limit, after: value };
}

/** The `{data, has_more}` body of a page read with one extra row. */
export function idPage<Row, Item>(
  rows: readonly Row[],
  limit: number,
  toItem: (row: Row) => Item,
): { data: Item[]; has_more: boolean } {
  return { data: rows.slice(0, limit).map(toItem), has_more: rows.length > limit };
}
