// Whether what a command printed is what the document shows for it: JSON by fields and shape,
// headers by name, text line by line, with values that vary matched by their shape. The
// conventions are written down at the top of test/e2e/docs-examples.test.ts.

export interface MatchContext {
  /** The local run's base URL, which `http://localhost:8787` in a document stands for. */
  base: string;
  /** When the run began: a clock value shown in a document stands for one from then on. */
  since: number;
}

/** Marks elided members or elements (`…`) in a shown JSON value. */
const MORE = "……more";
/** Marks a value shown as `…`: any value. */
const ANY = "……any";

/**
 * A shown JSON value, where `…` alone stands for members or elements left out (or, after a
 * colon, for any value), and `"…": "…"` for members left out of a pretty-printed object.
 */
export function parseShownJson(text: string): unknown {
  let out = "";
  const stack: string[] = [];
  let inString = false;
  let previous = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (inString) {
      out += ch;
      if (ch === "\\") out += text[++i] ?? "";
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    if (ch === "{" || ch === "[") stack.push(ch);
    if (ch === "}" || ch === "]") stack.pop();
    if (ch !== "…") out += ch;
    else if (previous === ":") out += `"${ANY}"`;
    else out += stack.at(-1) === "{" ? `"${MORE}": true` : `"${MORE}"`;
    if (ch.trim() !== "") previous = ch;
  }
  return JSON.parse(out);
}

const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/;
const HTTP_DATE =
  /(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT/;
const EPOCH_MS = /(?<![\d.])1\d{12}(?![\d.])/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** Shapes of values that vary from run to run; clock values must also be current. */
const SHAPES: { pattern: RegExp; clock?: (text: string) => number }[] = [
  { pattern: TIMESTAMP, clock: Date.parse },
  { pattern: HTTP_DATE, clock: Date.parse },
  { pattern: EPOCH_MS, clock: Number },
  { pattern: UUID },
];

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Whether `actual` is the shown string: `…` stands for any text, the example origin for the
 * run's, and an RFC 3339 timestamp, HTTP date, millisecond epoch or UUID for another of its
 * shape; a clock value matches itself or one from the run's start to two hours on.
 */
export function matchesShown(shown: string, actual: string, ctx: MatchContext): boolean {
  const text = shown.replaceAll("http://localhost:8787", ctx.base);
  const alternatives = new RegExp(
    `(…)|${SHAPES.map((s) => `(${s.pattern.source})`).join("|")}`,
    "g",
  );
  let source = "";
  let last = 0;
  /** The shape of each captured value, in order, with the value shown. */
  const captured: { shown: string; clock?: (text: string) => number }[] = [];
  for (const match of text.matchAll(alternatives)) {
    source += literal(text.slice(last, match.index));
    last = match.index + match[0].length;
    const shape = SHAPES[match.slice(2).findIndex((group) => group !== undefined)];
    if (match[1] || !shape) {
      source += "[\\s\\S]+?";
      continue;
    }
    source += `(${shape.pattern.source})`;
    captured.push({ shown: match[0], ...(shape.clock ? { clock: shape.clock } : {}) });
  }
  source += literal(text.slice(last));
  const found = new RegExp(`^${source}$`).exec(actual);
  if (!found) return false;
  const until = Date.now() + 2 * 3600_000;
  return captured.every(({ shown: literal, clock }, i) => {
    const value = found[i + 1] ?? "";
    if (!clock || value === literal) return true;
    const at = clock(value);
    return at >= ctx.since - 60_000 && at <= until;
  });
}

/** Where and how a JSON value differs from the shown one (empty when it matches). */
export function jsonDifferences(
  shown: unknown,
  actual: unknown,
  ctx: MatchContext,
  path = "$",
): string[] {
  if (shown === ANY) return [];
  if (typeof shown === "string") {
    return typeof actual === "string" && matchesShown(shown, actual, ctx)
      ? []
      : [`${path}: expected ${JSON.stringify(shown)}, got ${JSON.stringify(actual)}`];
  }
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual))
      return [`${path}: expected an array, got ${JSON.stringify(actual)}`];
    const open = shown.at(-1) === MORE;
    const items = open ? shown.slice(0, -1) : shown;
    if (open ? actual.length < items.length : actual.length !== items.length) {
      return [
        `${path}: expected ${open ? "at least " : ""}${items.length} items, got ${actual.length}`,
      ];
    }
    return items.flatMap((item, i) => jsonDifferences(item, actual[i], ctx, `${path}[${i}]`));
  }
  if (shown !== null && typeof shown === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) {
      return [`${path}: expected an object, got ${JSON.stringify(actual)}`];
    }
    const fields = Object.keys(shown).filter((k) => k !== MORE && k !== "…");
    const open = fields.length < Object.keys(shown).length;
    const present = Object.keys(actual);
    const problems: string[] = [];
    const missing = fields.filter((k) => !present.includes(k));
    if (missing.length > 0) problems.push(`${path}: missing ${missing.join(", ")}`);
    const extra = present.filter((k) => !fields.includes(k));
    if (!open && extra.length > 0) problems.push(`${path}: not shown: ${extra.join(", ")}`);
    const order = present.filter((k) => fields.includes(k));
    if (missing.length === 0 && order.join() !== fields.join()) {
      problems.push(`${path}: fields in the order ${order.join(", ")}, shown ${fields.join(", ")}`);
    }
    for (const k of fields.filter((f) => present.includes(f))) {
      const value = (shown as Record<string, unknown>)[k];
      problems.push(
        ...jsonDifferences(value, (actual as Record<string, unknown>)[k], ctx, `${path}.${k}`),
      );
    }
    return problems;
  }
  return shown === actual
    ? []
    : [`${path}: expected ${JSON.stringify(shown)}, got ${JSON.stringify(actual)}`];
}

/** An HTTP head as curl prints it (`-i`, `-D -`): the status line and the headers. */
export interface Head {
  status: number;
  statusLine: string;
  headers: [string, string][];
}

export function parseHead(lines: string[]): Head {
  const statusLine = (lines[0] ?? "").trim();
  const headers = lines.slice(1).flatMap((line): [string, string][] => {
    const at = line.indexOf(":");
    return at > 0 ? [[line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim()]] : [];
  });
  return { status: Number(statusLine.split(" ")[1]), statusLine, headers };
}

/** Whether a shown `Name: value` header is among the actual ones. */
export function hasHeader(head: Head, shown: string, ctx: MatchContext): boolean {
  const [name, value] = parseHead(["", shown]).headers[0] ?? ["", ""];
  return head.headers.some(([n, v]) => n === name && matchesShown(value, v, ctx));
}
