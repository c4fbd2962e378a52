// RFC 3339 timestamps, as the API reads them: checked against the calendar, normalised to UTC
// with milliseconds (the stored and served form, which sorts in time order as text).

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** True when the fields of an RFC 3339 match name a real calendar date and time of day. */
function isRealInstant(match: RegExpExecArray): boolean {
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = match
    .slice(1, 7)
    .map(Number);
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59
  );
}

/**
 * The normalised form of an RFC 3339 timestamp (`2026-09-30T23:59:59.000Z`), or null for anything
 * else, including dates the calendar lacks (Date alone would roll 2026-02-31 into March) and
 * instants whose UTC year leaves 0000..9999 (they would no longer sort as text).
 */
export function normaliseTimestamp(value: string): string | null {
  const match = RFC3339.exec(value);
  if (!match || !isRealInstant(match)) return null;
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime())) return null;
  const text = parsed.toISOString();
  return /^\d{4}-/.test(text) ? text : null;
}
