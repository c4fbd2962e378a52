// Date filters of the statements list: `period_end_date_gte` (inclusive lower bound) and
// `period_end_date_lt` (exclusive upper bound) on the statement date, named after the field they
// bound with the comparison as a suffix, so the name says which end is included.
import { type ApiError, invalidRequest } from "../app/errors";
import { normaliseTimestamp } from "../domain/timestamp";

export const FILTER_GTE = "period_end_date_gte";
export const FILTER_LT = "period_end_date_lt";

/** Normalised bounds (UTC, milliseconds), each absent when not sent. */
export interface PeriodEndFilters {
  gte?: string;
  lt?: string;
}

function bound(name: string, values: string[] | undefined): string | undefined | ApiError {
  if (values === undefined) return undefined;
  const [value] = values;
  const normalised = values.length === 1 && value ? normaliseTimestamp(value) : null;
  if (normalised === null) {
    return invalidRequest(
      [
        `${name} must be a single RFC 3339 timestamp, like 2026-01-01T00:00:00Z; got ` +
          JSON.stringify(values.join(",").slice(0, 64)),
      ],
      name,
    );
  }
  return normalised;
}

/** The filters of a request, or the 400 that a malformed one answers. */
export function readPeriodEndFilters(
  query: (name: string) => string[] | undefined,
): PeriodEndFilters | ApiError {
  const gte = bound(FILTER_GTE, query(FILTER_GTE));
  if (typeof gte === "object") return gte;
  const lt = bound(FILTER_LT, query(FILTER_LT));
  if (typeof lt === "object") return lt;
  if (gte !== undefined && lt !== undefined && gte >= lt) {
    return invalidRequest(
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
