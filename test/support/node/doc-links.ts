// The links of a Markdown document, read with marked (the parser the reference already uses), and
// what is wrong with each: test/node/doc-links.test.ts holds the README and the guides to them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Lexer, marked, type Token, type Tokens } from "marked";

/** One link or image of a document, as written. */
export interface DocLink {
  href: string;
  text: string;
}

/** What the checker needs of the repository: which paths exist, and a Markdown file's text. */
export interface Repository {
  /** Whether the path (relative to the root, `/`-separated) is a file or folder of a clone. */
  exists(relative: string): boolean;
  read(relative: string): string;
}

/** The repository as a clone of `files` (paths relative to `root`) has it. */
export function cloneOf(root: string, files: readonly string[]): Repository {
  const paths = new Set<string>();
  for (const file of files) {
    for (let p = file; p !== "."; p = path.posix.dirname(p)) paths.add(p);
  }
  return {
    exists: (relative) => relative === "" || paths.has(relative),
    read: (relative) => readFileSync(path.join(root, relative), "utf8"),
  };
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** Anchors and images written as HTML (`<a href="…">`, `<img src="…">`). */
const HTML_LINK = /<(?:a|img)\b[^>]*?\s(?:href|src)\s*=\s*"([^"]*)"/gi;
const HTML_ANCHOR = /<a\b[^>]*?\s(?:id|name)\s*=\s*"([^"]*)"/gi;

function tokensOf(markdown: string): Token[] {
  return Lexer.lex(markdown, { gfm: true });
}

/** Every link and image of a document, code blocks and code spans left out. */
export function linksOf(markdown: string): DocLink[] {
  const links: DocLink[] = [];
  marked.walkTokens(tokensOf(markdown), (token) => {
    if (token.type === "link" || token.type === "image") {
      const { href, text } = token as Tokens.Link | Tokens.Image;
      links.push({ href, text });
    } else if (token.type === "html") {
      for (const m of (token as Tokens.HTML).raw.matchAll(HTML_LINK)) {
        links.push({ href: m[1] ?? "", text: "(HTML)" });
      }
    }
  });
  return links;
}

/** A heading's text as it reads: markup dropped, code spans kept as their code. */
function plainText(tokens: Token[]): string {
  return tokens
    .map((t) => {
      const nested = (t as { tokens?: Token[] }).tokens;
      if (nested && t.type !== "codespan") return plainText(nested);
      return (t as { text?: string }).text ?? "";
    })
    .join("");
}

/**
 * GitHub's anchor for a heading: lower case, every character but letters, marks, digits,
 * connector punctuation, hyphens and spaces dropped, spaces turned into hyphens.
 */
export function slugOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors a document's headings (and HTML ids) make; a repeated one gets -1, -2, … */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  marked.walkTokens(tokensOf(markdown), (token) => {
    if (token.type === "heading") {
      const slug = slugOf(plainText((token as Tokens.Heading).tokens));
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    } else if (token.type === "html") {
      for (const m of (token as Tokens.HTML).raw.matchAll(HTML_ANCHOR)) anchors.add(m[1] ?? "");
    }
  });
  return anchors;
}

/** An http(s) link must be a URL a browser can open; nothing is fetched. */
function externalProblem(href: string): string | undefined {
  if (!/^https?:/i.test(href)) return "only http(s) links are allowed outside the repository";
  if (!URL.canParse(href)) return "not a well-formed URL";
  const url = new URL(href);
  if (!url.hostname) return "a URL without a host";
  if (/\s/.test(href)) return "a URL with a space in it";
  return undefined;
}

/**
 * What is wrong with each link of the document at `file` (relative to the root): a relative
 * link must name a path a clone has, and its `#anchor` a heading of the Markdown file it names
 * (of the document itself when it names none); an external one must be a well-formed http(s) URL.
 * Returns one line per problem, naming the link.
 */
export function linkProblems(file: string, repo: Repository): string[] {
  const problems: string[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchorsIn = (target: string) => {
    let anchors = anchorCache.get(target);
    if (!anchors) {
      anchors = anchorsOf(repo.read(target));
      anchorCache.set(target, anchors);
    }
    return anchors;
  };
  for (const { href, text } of linksOf(repo.read(file))) {
    const say = (why: string) => problems.push(`${file}: [${text}](${href}): ${why}`);
    if (SCHEME.test(href)) {
      const why = externalProblem(href);
      if (why) say(why);
      continue;
    }
    const hash = href.indexOf("#");
    const pathPart = decodeURIComponent(hash === -1 ? href : href.slice(0, hash));
    const anchor = hash === -1 ? undefined : decodeURIComponent(href.slice(hash + 1));
    const target =
      pathPart === ""
        ? file
        : path.posix.normalize(
            pathPart.startsWith("/")
              ? pathPart.slice(1)
              : path.posix.join(path.posix.dirname(file), pathPart),
          );
    if (target.startsWith("../") || target === "..") {
      say("points outside the repository");
      continue;
    }
    if (!repo.exists(target.replace(/\/$/, ""))) {
      say(`no such file or folder: ${target}`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!target.endsWith(".md")) {
      say(`an anchor into ${target}, which is not a Markdown file`);
    } else if (!anchorsIn(target).has(anchor)) {
      say(`${target} has no heading whose anchor is #${anchor}`);
    }
  }
  return problems;
}

/** The Markdown files a document links to (relative to the root), anchors dropped. */
export function linkedFiles(file: string, markdown: string): Set<string> {
  const files = new Set<string>();
  for (const { href } of linksOf(markdown)) {
    if (SCHEME.test(href)) continue;
    const pathPart = decodeURIComponent(href.split("#")[0] ?? "");
    if (pathPart === "") continue;
    files.add(path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart)));
  }
  return files;
}
