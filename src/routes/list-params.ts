// Query parameters shared by the list endpoints.
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
