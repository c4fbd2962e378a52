// The paths of the repository that a Markdown document names in its prose and code spans (not
// in its code blocks, which are commands and files), and which of them a clone lacks:
// test/node/doc-paths.test.ts holds the README and the guides to them.
import { Lexer, marked, type Token, type Tokens } from "marked";
import type { Repository } from "./doc-links.ts";

/** One path a document names, as written, with the kind of text it stands in. */
export interface NamedPath {
  path: string;
  in: "prose" | "code span";
}

/**
 * A path is a run of path characters that starts with a top-level folder of the repository and
 * is not the tail of a longer path or a URL. A placeholder such as `src/<feature>/` ends the run,
 * so only its real head (`src/`) is checked.
 */
function pathPattern(topFolders: readonly string[]): RegExp {
  const escaped = topFolders.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`(?<![\\w./@:-])(?:${escaped.join("|")})/[\\w./-]*`, "g");
}

/** A path as a clone would list it: without the sentence's full stop or a folder's slash. */
function trimmed(path: string): string {
  return path.replace(/[.]+$/, "").replace(/\/+$/, "");
}

/** Every path the document names in prose (headings, paragraphs, lists, tables) and code spans. */
export function namedPaths(markdown: string, topFolders: readonly string[]): NamedPath[] {
  const pattern = pathPattern(topFolders);
  const named: NamedPath[] = [];
  marked.walkTokens(Lexer.lex(markdown, { gfm: true }), (token) => {
    const inCode = token.type === "codespan";
    // A text token with tokens of its own is a container; its inner tokens are walked too.
    const inProse = token.type === "text" && !(token as Tokens.Text).tokens;
    if (!inCode && !inProse) return;
    for (const match of (token as Tokens.Text | Tokens.Codespan).text.matchAll(pattern)) {
      named.push({ path: trimmed(match[0]), in: inCode ? "code span" : "prose" });
    }
  });
  return named;
}

/**
 * The paths a guide writes itself: those named in a paragraph that ends with a colon and is
 * followed by a code block, as a recipe says "in `src/products/routes.ts`:" and then shows the
 * file. Following the guide makes them, so a clone need not have them yet.
 */
export function writtenPaths(markdown: string, topFolders: readonly string[]): Set<string> {
  const blocks = Lexer.lex(markdown, { gfm: true }).filter(
    (t) => t.type !== "space" && t.type !== "html",
  );
  const written = new Set<string>();
  blocks.forEach((block: Token, i) => {
    const next = blocks[i + 1];
    if (block.type !== "paragraph" || next?.type !== "code") return;
    if (!block.raw.trim().endsWith(":")) return;
    for (const { path } of namedPaths(block.raw, topFolders)) written.add(path);
  });
  return written;
}

/**
 * What is wrong with the paths the document at `file` names: each must be a file or folder of a
 * clone, unless the guide writes it itself (or it is a folder of a path the guide writes). Returns
 * one line per path, in the order the document names them.
 */
export function pathProblems(
  file: string,
  repo: Repository,
  topFolders: readonly string[],
): string[] {
  const markdown = repo.read(file);
  const written = [...writtenPaths(markdown, topFolders)];
  const madeByTheGuide = (path: string) =>
    written.some((w) => w === path || w.startsWith(`${path}/`));
  const problems = new Set<string>();
  for (const named of namedPaths(markdown, topFolders)) {
    if (repo.exists(named.path) || madeByTheGuide(named.path)) continue;
    problems.add(`${file}: ${named.path} (in ${named.in}): no such file or folder`);
  }
  return [...problems];
}

/** The raw Markdown of the section under the heading `title`, down to the next heading of its level. */
export function sectionOf(markdown: string, title: string): string {
  const tokens = Lexer.lex(markdown, { gfm: true });
  const start = tokens.findIndex(
    (t) => t.type === "heading" && (t as Tokens.Heading).text === title,
  );
  if (start === -1) return "";
  const depth = (tokens[start] as Tokens.Heading).depth;
  const rest = tokens.slice(start + 1);
  const end = rest.findIndex((t) => t.type === "heading" && (t as Tokens.Heading).depth <= depth);
  return (end === -1 ? rest : rest.slice(0, end)).map((t) => t.raw).join("");
}
