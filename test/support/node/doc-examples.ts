// The examples of a Markdown document, read as test/e2e/docs-examples.test.ts runs them: its
// shell blocks split into commands, each with the output the document shows for it, and the
// order the documents run in. The conventions themselves are written down at the top of that test.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** One command of a shell block, with what the document says it prints and answers. */
export interface Example {
  file: string;
  /** 1-based line of the command's first line. */
  line: number;
  /** The command as written (continuation lines included). */
  text: string;
  /** The comment at the end of its last line (`# 400 …`), without the `#`. */
  annotation?: string;
  /** The output shown under it, one entry per line, without the leading `# `. */
  output: string[];
  /** A ```json block right after the shell block, for its last command. */
  body?: string;
  /** Placeholders such as `<key_id>` in the command. */
  placeholders: string[];
}

export type BlockKind = "run" | "other-shell" | "not-run";

export interface ShellBlock {
  file: string;
  line: number;
  kind: BlockKind;
  /** Why a block is not run (`<!-- not run: … -->` above it). */
  reason?: string;
  examples: Example[];
  /** Its comment lines that are not outputs (explanations). */
  comments: string[];
  /** The paragraph right above the block. */
  intro: string;
}

const SHELLS = new Set(["sh", "bash", "shell"]);
const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/;
const NOT_RUN = /^<!--\s*not run:\s*(.+?)\s*-->$/;
/** A block whose first line says so runs in a shell of its own, alongside the main one. */
export const OTHER_SHELL = /^#\s*In (?:another|a second|a third|a new) (?:shell|terminal)\b/i;
const PLACEHOLDER = /<([a-z][a-z0-9_]*)>/g;

type Context = "cmd" | "sq" | "dq" | "paren" | "brace";

/** Where a shell line leaves the quoting, and its code and trailing comment. */
function scan(line: string, stack: Context[]): { code: string; comment?: string } {
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    const top = stack.at(-1);
    if (top === "sq") {
      if (ch === "'") stack.pop();
      continue;
    }
    if (ch === "\\") {
      i++;
      continue;
    }
    if (top === "dq" && ch === '"') {
      stack.pop();
      continue;
    }
    if (ch === "$" && (line[i + 1] === "(" || line[i + 1] === "{")) {
      stack.push(line[i + 1] === "(" ? "paren" : "brace");
      i++;
      continue;
    }
    if (top === "brace" && ch === "}") {
      stack.pop();
      continue;
    }
    if (top === "dq") continue;
    if (ch === "'") stack.push("sq");
    else if (ch === '"') stack.push("dq");
    else if (ch === "(") stack.push("paren");
    else if (ch === ")" && top === "paren") stack.pop();
    else if (ch === "#" && (i === 0 || /\s/.test(line[i - 1] ?? "")) && stack.length === 1) {
      return { code: line.slice(0, i).trimEnd(), comment: line.slice(i + 1).trim() };
    }
  }
  return { code: line.trimEnd() };
}

/** Whether a command goes on to the next line. */
function continues(code: string, stack: Context[]): boolean {
  return stack.length > 1 || /(\\|\||&&)$/.test(code);
}

function shellBlock(file: string, line: number, lines: string[], kind: BlockKind): ShellBlock {
  const block: ShellBlock = { file, line, kind, examples: [], comments: [], intro: "" };
  let open: { lines: string[]; line: number; comment?: string } | undefined;
  let stack: Context[] = ["cmd"];
  /** The example that comment lines right below belong to, as its output. */
  let attach: Example | undefined;
  lines.forEach((text, i) => {
    const at = line + 1 + i;
    if (!open && text.trim() === "") {
      attach = undefined;
      return;
    }
    if (!open && /^\s*#/.test(text)) {
      const comment = text.trim().replace(/^# ?/, "");
      if (attach) attach.output.push(comment);
      else block.comments.push(comment);
      return;
    }
    const scanned = scan(text, stack);
    open ??= { lines: [], line: at };
    open.lines.push(text);
    if (continues(scanned.code, stack)) return;
    const command = open.lines.join("\n");
    const example: Example = {
      file,
      line: open.line,
      text: command,
      output: [],
      placeholders: [...command.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ""),
    };
    if (scanned.comment !== undefined) example.annotation = scanned.comment;
    block.examples.push(example);
    attach = example;
    open = undefined;
    stack = ["cmd"];
  });
  if (open) throw new Error(`${file}:${open.line}: the command never ends (an open quote?)`);
  return block;
}

/** Every shell block of a document, in order, with the ```json bodies shown after them. */
export function shellBlocks(file: string, markdown: string): ShellBlock[] {
  const lines = markdown.split("\n");
  const blocks: ShellBlock[] = [];
  let lastEnd = -1;
  for (let i = 0; i < lines.length; i++) {
    const fence = FENCE.exec(lines[i] ?? "");
    if (!fence) continue;
    const [, indent = "", marks = "", lang = ""] = fence;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !(lines[i] ?? "").trim().startsWith(marks); i++) {
      body.push((lines[i] ?? "").slice(indent.length));
    }
    const above = lines.slice(0, start).filter((l) => l.trim() !== "");
    const notRun = NOT_RUN.exec(above.at(-1)?.trim() ?? "");
    const previous = blocks.at(-1);
    const onlyBlankSince = lines.slice(lastEnd + 1, start).every((l) => l.trim() === "");
    lastEnd = i;
    if (lang === "json" && previous?.kind === "run" && onlyBlankSince) {
      const last = previous.examples.at(-1);
      if (!last || last.output.length > 0) {
        throw new Error(`${file}:${start + 1}: a json block follows a command that shows output`);
      }
      last.body = body.join("\n");
      continue;
    }
    if (!SHELLS.has(lang)) continue;
    const kind: BlockKind = notRun
      ? "not-run"
      : OTHER_SHELL.test(body[0] ?? "")
        ? "other-shell"
        : "run";
    const block = shellBlock(file, start + 1, body, kind);
    if (notRun?.[1]) block.reason = notRun[1];
    block.intro = paragraphAbove(lines, start);
    blocks.push(block);
  }
  return blocks;
}

/** The paragraph that ends right above line `index`. */
function paragraphAbove(lines: string[], index: number): string {
  let end = index;
  while (end > 0 && (lines[end - 1] ?? "").trim() === "") end--;
  let begin = end;
  while (begin > 0 && (lines[begin - 1] ?? "").trim() !== "") begin--;
  return lines.slice(begin, end).join("\n");
}

/**
 * What placeholders stand for: the latest value of each JSON field an earlier command printed
 * (its first in document order), as a reader copies it from the answer above.
 */
export class PrintedValues {
  private readonly values = new Map<string, string>();

  remember(stdout: string): void {
    let value: unknown;
    try {
      value = JSON.parse(stdout);
    } catch {
      return;
    }
    const found = new Map<string, string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === "object") {
        for (const [name, x] of Object.entries(v)) {
          const scalar = typeof x === "string" || typeof x === "number";
          if (scalar && !found.has(name)) found.set(name, String(x));
          walk(x);
        }
      }
    };
    walk(value);
    for (const [name, v] of found) this.values.set(name, v);
  }

  /** The command with its placeholders filled; throws when one is unexplained or unknown. */
  fill(example: Example, block: ShellBlock): string {
    let text = example.text;
    for (const name of example.placeholders) {
      const said = [block.intro, ...block.comments].some((t) => t.includes(`<${name}>`));
      if (!said) throw new Error(`<${name}> is not explained: say where its value comes from`);
      const value = this.values.get(name);
      if (value === undefined) throw new Error(`<${name}>: no earlier command printed a ${name}`);
      text = text.replaceAll(`<${name}>`, value);
    }
    return text;
  }
}

/** A relative link to a Markdown file, as the guides' index writes it: `[Tour](tour.md)`. */
const MARKDOWN_LINK = /\]\(([^()\s#]+\.md)(?:#[^()\s]*)?\)/g;

/**
 * The documents whose examples run, in the order they run: README.md, then the guides in the
 * order docs/README.md (their index, in reading order) links them, then any other guide by name.
 * One local run serves them all, so a guide may show what the documents before it left behind.
 */
export function documentsInOrder(root: string): string[] {
  const guides = readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);
  const index = readFileSync(path.join(root, "docs", "README.md"), "utf8");
  const listed = [...index.matchAll(MARKDOWN_LINK)]
    .map((m) => path.posix.normalize(`docs/${m[1]}`))
    .filter((f) => guides.includes(f));
  const ordered = [...new Set(["docs/README.md", ...listed])];
  return ["README.md", ...ordered, ...guides.filter((f) => !ordered.includes(f)).sort()];
}
