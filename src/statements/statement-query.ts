// The statements list's query: `limit`, the signed `starting_after` cursor and the date filters
// `period_end_date_gte` (inclusive lower bound) and `period_end_date_lt` (exclusive upper bound)
// on the statement date, named after the field they bound with the comparison as a suffix, so the
// name says which end is included. Read once, before authentication, into the value that both
// the read plan and the handler use; documented by the same definition.
import { invalidRequest } from "../app/errors";
import { pageParameters, parseLimit, type QueryDefinition, startingAfterToken } from "../app/query";
import { type PagePosition, peekPagePosition } from "../domain/page-token";
import { normaliseTimestamp } from "../domain/timestamp";

const FILTER_GTE = "period_end_date_gte";
const FILTER_LT = "period_end_date_lt";

/** Normalised bounds (UTC, milliseconds), each absent when not sent. */
export interface PeriodEndFilters {
  gte?: string;
  lt?: string;
}

export interface StatementListQuery {
  limit: number;
  filters: PeriodEndFilters;
  /**
   * The cursor of a continuation, and the position it carries (read without its signature, to
   * plan the page; the handler checks the signature before anything read is used).
   */
  startingAfter?: { token: string; position: PagePosition };
}

/** The 400 of a cursor this endpoint did not issue for this account and these filters. */
export function foreignCursor() {
  return invalidRequest(
    [
      "starting_after must be a next_page_token returned by this endpoint for this account " +
        "and the same period_end_date filters",
    ],
    "starting_after",
  );
}

function bound(name: string, values: string[] | undefined): string | undefined {
  if (values === undefined) return undefined;
  const [value] = values;
  const normalised = values.length === 1 && value ? normaliseTimestamp(value) : null;
  if (normalised === null) {
    throw invalidRequest(
      [
        `${name} must be a single RFC 3339 timestamp, like 2026-01-01T00:00:00Z; got ` +
          JSON.stringify(values.join(",").slice(0, 64)),
      ],
      name,
    );
  }
  return normalised;
}

function readFilters(query: (name: string) => string[] | undefined): PeriodEndFilters {
  const gte = bound(FILTER_GTE, query(FILTER_GTE));
  const lt = bound(FILTER_LT, query(FILTER_LT));
  if (gte !== undefined && lt !== undefined && gte >= lt) {
    throw invalidRequest(
      [`${FILTER_GTE} must be earlier than ${FILTER_LT}: the range would be empty`],
      FILTER_GTE,
    );
  }
  const filters: PeriodEndFilters = {};
  if (gte !== undefined) filters.gte = gte;
  if (lt !== undefined) filters.lt = lt;
  return filters;
}

/** The canonical text page tokens are bound to, or undefined for an unfiltered listing. */
export function filterBinding(filters: PeriodEndFilters): string | undefined {
  if (filters.gte === undefined && filters.lt === undefined) return undefined;
  return `${FILTER_GTE}=${filters.gte ?? ""}&${FILTER_LT}=${filters.lt ?? ""}`;
}

export const statementListQuery: QueryDefinition<StatementListQuery> = {
  parameters: [
    ...pageParameters("token"),
    {
      name: FILTER_GTE,
      in: "query",
      required: false,
      description:
        "Only statements whose `period_end_date` is at or after this instant (inclusive). An " +
        "RFC 3339 timestamp, e.g. `2026-01-01T00:00:00Z`. Page tokens are bound to the " +
        "filters: send the same ones with `starting_after`.",
      schema: { type: "string", format: "date-time" },
    },
    {
      name: FILTER_LT,
      in: "query",
      required: false,
      description:
        "Only statements whose `period_end_date` is before this instant (exclusive). An RFC " +
        "3339 timestamp; must be later than `period_end_date_gte` when both are sent.",
      schema: { type: "string", format: "date-time" },
    },
  ],
  parse(query) {
    const limit = parseLimit(query("limit"));
    const filters = readFilters(query);
    const token = startingAfterToken(query, foreignCursor);
    if (token === undefined) return { limit, filters };
    const position = peekPagePosition(token);
    if (!position) throw foreignCursor();
    return { limit, filters, startingAfter: { token, position } };
  },
};
