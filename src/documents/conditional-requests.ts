// RFC 9110 §13 (conditional requests) and §14 (range requests) for a stored document: what a
// GET or HEAD should answer, decided before any body is sent. Malformed fields are ignored, as the
// RFC tells a recipient to do with a date it cannot parse; nothing here throws on client input.

/** What the validators and size of the selected representation are. */
export interface Representation {
  /** A strong entity-tag, quoted: `"abc"`. */
  etag: string;
  /** Whole seconds: an HTTP-date cannot say more. */
  lastModified: Date;
  size: number;
}

export type Outcome =
  | { status: 200 }
  | { status: 206; offset: number; length: number }
  | { status: 304 }
  | { status: 412 }
  | { status: 416 };

interface EntityTag {
  weak: boolean;
  opaque: string;
}

/** `*`, a list of entity-tags, or null when the field is absent or malformed. */
function parseEntityTags(value: string | null): "*" | EntityTag[] | null {
  if (value === null) return null;
  if (value.trim() === "*") return "*";
  const tags: EntityTag[] = [];
  // etagc excludes DQUOTE but allows commas, so the list is scanned, not split.
  const item = /^[ \t]*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"[ \t]*(?:,|$)/;
  let rest = value;
  while (rest.trim() !== "") {
    const empty = /^[ \t]*,/.exec(rest);
    if (empty) {
      rest = rest.slice(empty[0].length);
      continue;
    }
    const match = item.exec(rest);
    if (!match) return null;
    tags.push({ weak: match[1] !== undefined, opaque: match[2] ?? "" });
    rest = rest.slice(match[0].length);
  }
  return tags.length > 0 ? tags : null;
}

function parseTag(etag: string): EntityTag {
  const weak = etag.startsWith("W/");
  return { weak, opaque: etag.slice(weak ? 3 : 1, -1) };
}

const strongMatch = (a: EntityTag, b: EntityTag) => !a.weak && !b.weak && a.opaque === b.opaque;
const weakMatch = (a: EntityTag, b: EntityTag) => a.opaque === b.opaque;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const IMF_FIXDATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const RFC850_DATE =
  /^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-([A-Z][a-z]{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const ASCTIME_DATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

function instant(
  year: number,
  month: string,
  day: number,
  hour: number,
  minute: number,
  second: number,
): Date | null {
  const m = MONTHS.indexOf(month);
  if (m === -1 || hour > 23 || minute > 59 || second > 60) return null;
  const date = new Date(Date.UTC(year, m, day, hour, minute, Math.min(second, 59)));
  return date.getUTCDate() === day && date.getUTCMonth() === m ? date : null;
}

/** An HTTP-date in any of the three formats a recipient must accept (RFC 9110 §5.6.7). */
export function parseHttpDate(value: string | null, now: Date): Date | null {
  if (value === null) return null;
  const text = value.trim();
  let match = IMF_FIXDATE.exec(text);
  if (match) {
    const [, d, mon = "", y, h, mi, s] = match;
    return instant(Number(y), mon, Number(d), Number(h), Number(mi), Number(s));
  }
  match = RFC850_DATE.exec(text);
  if (match) {
    const [, d, mon = "", yy, h, mi, s] = match;
    // A two-digit year more than 50 years ahead is in the past century.
    let year = Math.floor(now.getUTCFullYear() / 100) * 100 + Number(yy);
    if (year > now.getUTCFullYear() + 50) year -= 100;
    return instant(year, mon, Number(d), Number(h), Number(mi), Number(s));
  }
  match = ASCTIME_DATE.exec(text);
  if (match) {
    const [, mon = "", d, h, mi, s, y] = match;
    return instant(Number(y), mon, Number(d), Number(h), Number(mi), Number(s));
  }
  return null;
}

/** The IMF-fixdate form, the one a sender generates. */
export function formatHttpDate(date: Date): string {
  return date.toUTCString();
}

type ByteRange = { offset: number; length: number } | "unsatisfiable";

/**
 * The one byte range a `Range` field asks for; null when it is absent, malformed, in another
 * unit, or asks for several ranges (a server may answer those with the whole document).
 */
function parseRange(value: string | null, size: number): ByteRange | null {
  if (value === null) return null;
  const match = /^[ \t]*bytes[ \t]*=[ \t]*(\d*)[ \t]*-[ \t]*(\d*)[ \t]*$/i.exec(value);
  if (!match) return null;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    // A suffix: the last N bytes.
    const suffix = Number(last);
    if (suffix === 0) return "unsatisfiable";
    const length = Math.min(suffix, size);
    return { offset: size - length, length };
  }
  const start = Number(first);
  if (last !== "" && Number(last) < start) return null;
  if (start >= size) return "unsatisfiable";
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  return { offset: start, length: end - start + 1 };
}

/** If-Range: the validator must be exactly the current one, an entity-tag compared strongly. */
function ifRangeHolds(value: string, rep: Representation, now: Date): boolean {
  const tags = parseEntityTags(value);
  if (tags !== null && tags !== "*") {
    const [only] = tags;
    return tags.length === 1 && only !== undefined && strongMatch(only, parseTag(rep.etag));
  }
  const date = parseHttpDate(value, now);
  return date !== null && date.getTime() === rep.lastModified.getTime();
}

/**
 * Evaluates a GET or HEAD in the order of RFC 9110 §13.2.2: If-Match, If-Unmodified-Since,
 * If-None-Match, If-Modified-Since, then Range with If-Range (GET only, §14.2).
 */
export function evaluate(
  method: "GET" | "HEAD",
  headers: Headers,
  rep: Representation,
  now: Date,
): Outcome {
  const current = parseTag(rep.etag);
  const modified = rep.lastModified.getTime();

  const ifMatch = parseEntityTags(headers.get("if-match"));
  if (ifMatch !== null) {
    if (ifMatch !== "*" && !ifMatch.some((tag) => strongMatch(tag, current))) {
      return { status: 412 };
    }
  } else {
    const unmodifiedSince = parseHttpDate(headers.get("if-unmodified-since"), now);
    if (unmodifiedSince !== null && modified > unmodifiedSince.getTime()) return { status: 412 };
  }

  const ifNoneMatch = parseEntityTags(headers.get("if-none-match"));
  if (ifNoneMatch !== null) {
    if (ifNoneMatch === "*" || ifNoneMatch.some((tag) => weakMatch(tag, current))) {
      return { status: 304 };
    }
  } else {
    const modifiedSince = parseHttpDate(headers.get("if-modified-since"), now);
    if (modifiedSince !== null && modified <= modifiedSince.getTime()) return { status: 304 };
  }

  if (method !== "GET") return { status: 200 };
  const range = parseRange(headers.get("range"), rep.size);
  if (range === null) return { status: 200 };
  const ifRange = headers.get("if-range");
  if (ifRange !== null && !ifRangeHolds(ifRange, rep, now)) return { status: 200 };
  return range === "unsatisfiable" ? { status: 416 } : { status: 206, ...range };
}
