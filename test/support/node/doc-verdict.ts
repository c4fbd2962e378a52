// Whether a documented command did what its document shows: its exit status, the status of every
// answer it got (an error status only where the document names it), the headers named, and its
// output. Each difference is one message, with what was shown against what came.
import type { Example } from "./doc-examples.ts";
import {
  hasHeader,
  jsonDifferences,
  type MatchContext,
  matchesShown,
  parseHead,
  parseShownJson,
} from "./doc-outputs.ts";
import type { Ran } from "./doc-shell.ts";

/** The status the document names for a command's last answer, if it names one. */
function namedStatus(example: Example): number | undefined {
  const annotated = /^(\d{3})\b/.exec(example.annotation ?? "")?.[1];
  if (annotated) return Number(annotated);
  const [first] = example.output;
  if (first?.startsWith("HTTP/")) return parseHead([first]).status;
  if (example.output.length === 1 && /^\d{3}$/.test(first ?? "")) return Number(first);
  return undefined;
}

function jsonProblems(shown: string, actual: string, what: string, ctx: MatchContext): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(actual);
  } catch {
    return [`${what}: expected JSON like ${shown}\n  got: ${actual.slice(0, 500)}`];
  }
  const differences = jsonDifferences(parseShownJson(shown), parsed, ctx);
  if (differences.length === 0) return [];
  const got = actual.slice(0, 1500);
  return [`${what} differs from the document:\n  ${differences.join("\n  ")}\n  got: ${got}`];
}

function textProblems(shown: string[], actual: string, what: string, ctx: MatchContext) {
  const lines = actual.replace(/\r?\n$/, "").split(/\r?\n/);
  const same =
    lines.length === shown.length &&
    shown.every((s, i) => matchesShown(s.trim(), (lines[i] ?? "").trim(), ctx));
  return same ? [] : [`${what}: expected\n  ${shown.join("\n  ")}\n  got\n  ${lines.join("\n  ")}`];
}

/** Every answer is one the document expects: the named status last, nothing failing before. */
function statusProblems(example: Example, ran: Ran): string[] {
  const named = namedStatus(example);
  const problems = ran.answers.flatMap((answer, i) => {
    const expected = i === ran.answers.length - 1 ? named : undefined;
    if (expected === undefined ? answer.status < 400 : answer.status === expected) return [];
    const said =
      expected === undefined ? "the document names no error" : `the document says ${expected}`;
    return [`${answer.request} answered ${answer.statusLine}: ${said}`];
  });
  if (named !== undefined && ran.answers.length === 0) {
    problems.push(`the document names status ${named}, but no request was made`);
  }
  return problems;
}

/** The checks after the status in a trailing comment: `Header: value`, `no Header`. */
function annotatedHeaderProblems(example: Example, ran: Ran, ctx: MatchContext): string[] {
  const last = ran.answers.at(-1);
  if (!last) return [];
  const items = (example.annotation ?? "").split(",").slice(1);
  return items.flatMap((raw) => {
    const item = raw.trim();
    const absent = /^no ([A-Za-z][\w-]*)$/.exec(item)?.[1]?.toLowerCase();
    if (absent && last.headers.some(([name]) => name === absent)) {
      return [`the answer has ${absent}, the document says it has none`];
    }
    if (/^[A-Za-z][\w-]*: \S/.test(item) && !hasHeader(last, item, ctx)) {
      return [`expected the header ${item}, got ${JSON.stringify(last.headers)}`];
    }
    return [];
  });
}

/** A shown head (`-i`, `-D -`): status line, the headers named, then the body if shown. */
function headProblems(example: Example, stdout: string, ctx: MatchContext): string[] {
  const gap = /\r?\n\r?\n/.exec(stdout);
  const head = gap ? stdout.slice(0, gap.index) : stdout;
  const body = gap ? stdout.slice(gap.index + gap[0].length) : "";
  const actual = parseHead(head.split(/\r?\n/));
  const shown = example.output;
  const bodyAt = shown.findIndex((l, i) => i > 0 && !/^[A-Za-z][\w-]*: /.test(l));
  const shownHead = bodyAt === -1 ? shown : shown.slice(0, bodyAt);
  const shownBody = bodyAt === -1 ? [] : shown.slice(bodyAt);
  const problems: string[] = [];
  if (!matchesShown(shown[0] ?? "", actual.statusLine, ctx)) {
    problems.push(`status line: expected ${shown[0]}, got ${actual.statusLine}`);
  }
  for (const header of shownHead.slice(1)) {
    if (!hasHeader(actual, header, ctx)) problems.push(`header ${header} not in:\n  ${head}`);
  }
  if (/^[[{]/.test(shownBody[0] ?? "")) {
    problems.push(...jsonProblems(shownBody.join(" "), body, "body", ctx));
  } else if (shownBody.length > 0) {
    problems.push(...textProblems(shownBody, body, "body", ctx));
  }
  return problems;
}

/** What differs between what the document shows for a command and what it did. */
export function problemsOf(example: Example, ran: Ran, ctx: MatchContext): string[] {
  const problems: string[] = [];
  if (ran.status !== 0) problems.push(`exited with status ${ran.status}: ${ran.stderr.trim()}`);
  problems.push(...statusProblems(example, ran), ...annotatedHeaderProblems(example, ran, ctx));
  if (example.body !== undefined) {
    problems.push(...jsonProblems(example.body, ran.stdout, "output", ctx));
  }
  const [first] = example.output;
  if (first?.startsWith("HTTP/")) problems.push(...headProblems(example, ran.stdout, ctx));
  else if (/^[[{]/.test(first ?? "")) {
    problems.push(...jsonProblems(example.output.join(" "), ran.stdout, "output", ctx));
  } else if (first !== undefined) {
    problems.push(...textProblems(example.output, ran.stdout, "output", ctx));
  }
  return problems;
}

/** Whether `shown` lines appear in `lines` in order, other lines allowed between. */
export function showsInOrder(shown: string[], lines: string[], ctx: MatchContext): boolean {
  let at = 0;
  for (const line of lines) if (at < shown.length && matchesShown(shown[at] ?? "", line, ctx)) at++;
  return at === shown.length;
}
