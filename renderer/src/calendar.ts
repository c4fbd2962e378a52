// Dates as a statement shows them. A timestamp's calendar date is the one written in it, in the
// offset the issuer wrote: "2026-09-30T23:59:59-05:00" closed on September 30, not October 1.

const LONG = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });
const SHORT = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** The calendar date an RFC 3339 timestamp names, as a UTC midnight. */
function calendarDate(timestamp: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(timestamp);
  if (!match) throw new RangeError(`not an RFC 3339 timestamp: ${JSON.stringify(timestamp)}`);
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
}

/** "September 30, 2026". */
export function longDate(timestamp: string): string {
  return LONG.format(calendarDate(timestamp));
}

/** "September 1 – 30, 2026", or the closing date alone when the start is unknown. */
export function periodRange(start: string | undefined, end: string): string {
  return start === undefined
    ? longDate(end)
    : LONG.formatRange(calendarDate(start), calendarDate(end));
}

/** "Sep 3": a transaction's date within its statement's period. */
export function shortDate(timestamp: string): string {
  return SHORT.format(calendarDate(timestamp));
}

/** The calendar year a timestamp names: 2026. */
export function calendarYear(timestamp: string): number {
  return calendarDate(timestamp).getUTCFullYear();
}
