// Query parameters, each definition read once into a typed value and documented by the same
// definition: `limit` everywhere, the id-based pagination of most lists, and the signed cursors
// of the lists that page by token.
import type { JsonSchema } from "../versioning";
import { invalidRequest } from "./errors";

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;

/** An OpenAPI parameter object: how the reference documents one parameter. */
export interface ParameterObject {
  name: string;
  in: "query" | "path" | "header";
  required: boolean;
  description: string;
  schema: JsonSchema;
  example?: string;
}

/** The values of one query parameter, as the request sent them (absent: undefined). */
export type QueryReader = (name: string) => string[] | undefined;

/**
 * A route's query parameters: what the reference documents, and how they are read into a typed
 * value. `parse` throws the 400 that a malformed parameter answers; the request is refused with
 * it once the pipeline (`partnerRoute`) has let it through.
 */
export interface QueryDefinition<Query> {
  /** OpenAPI parameter objects, in the order the reference lists them. */
  parameters: readonly ParameterObject[];
  parse(query: QueryReader): Query;
}

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

/** `limit` and `starting_after`, documented for a list paged by object id or by signed token. */
export function pageParameters(page: "token" | "id"): ParameterObject[] {
  return [
    {
      name: "limit",
      in: "query",
      required: false,
      description: "Maximum number of objects returned.",
      schema: { type: "integer", minimum: 1, maximum: 100, default: 10 },
    },
    {
      name: "starting_after",
      in: "query",
      required: false,
      description:
        page === "token"
          ? "The `next_page_token` of the previous page: an opaque cursor, not an object id."
          : "The id of the last object of the previous page.",
      schema: { type: "string" },
    },
  ];
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
export const idPageQuery: QueryDefinition<IdPageRequest> = {
  parameters: pageParameters("id"),
  parse(query) {
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
  },
};

/**
 * The single `starting_after` of a list paged by signed token, or undefined when absent; `refused`
 * is the 400 of a cursor that is repeated or empty, the same as one this endpoint did not issue.
 */
export function startingAfterToken(query: QueryReader, refused: () => Error): string | undefined {
  const values = query("starting_after");
  if (values === undefined) return undefined;
  const [value] = values;
  if (values.length !== 1 || !value) throw refused();
  return value;
}

/** The `{data, has_more}` body of a page read with one extra row. */
export function idPage<Row, Item>(
  rows: readonly Row[],
  limit: number,
  toItem: (row: Row) => Item,
): { data: Item[]; has_more: boolean } {
  return { data: rows.slice(0, limit).map(toItem), has_more: rows.length > limit };
}

/** An exact-match filter of a list: a query parameter naming one value. */
export interface ListFilter<Name extends string> {
  name: Name;
  description: string;
  /** The values it may take, when it is an enumeration. */
  values?: readonly string[];
}

/**
 * `limit`, `starting_after=<id>` and exact-match filters, each sent at most once: a filter sent
 * twice, empty, over-long or outside its values answers `400` naming it.
 */
export function idPageQueryWith<const Name extends string>(
  filters: readonly ListFilter<Name>[],
): QueryDefinition<IdPageRequest & { filters: Partial<Record<Name, string>> }> {
  return {
    parameters: [
      ...idPageQuery.parameters,
      ...filters.map(({ name, description, values }) => ({
        name,
        in: "query" as const,
        required: false,
        description,
        schema: values ? { type: "string", enum: [...values] } : { type: "string" },
      })),
    ],
    parse(query) {
      const page = idPageQuery.parse(query);
      const chosen: Partial<Record<Name, string>> = {};
      for (const { name, values } of filters) {
        const sent = query(name);
        if (sent === undefined) continue;
        const [value] = sent;
        const valid =
          sent.length === 1 &&
          value !== undefined &&
          value.length > 0 &&
          value.length <= MAX_ID_LENGTH &&
          (values === undefined || values.includes(value));
        if (!valid) {
          const allowed = values ? `one of ${values.join(", ")}` : "a single non-empty value";
          throw invalidRequest([`${name} must be ${allowed}`], name);
        }
        chosen[name] = value;
      }
      return { ...page, filters: chosen };
    },
  };
}
