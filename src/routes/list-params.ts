// Query parameters shared by the list endpoints: `limit` everywhere, and the id-based
// pagination of every list except statements (which use signed tokens).
import { invalidRequest } from "../app/errors";

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;

/** `limit`: absent → 10; otherwise exactly one decimal integer from 1 to 100. */
export function parseLimit(values: string[] | undefined): number {
  if (values === undefined) return DEFAULT_LIMIT;
  const [value] = values;
  const limit = values.length === 1 && value && /^[0-9]{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) {
    throw invalidRequest(
      [
        `limit must be a single integer from 1 to ${MAX_LIMIT}; got ${JSON.stringify(values.join(",").slice(0, 64))}`,
      ],
      "limit",
    );
  }
  return limit;
}

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
