// The documentation's examples, run as a reader runs them: every shell block of README.md and
// docs/*.md, in order, against `npm start` (in a scratch copy of the checkout), each document in
// a fresh shell of its own, and what each command prints and answers compared with what the
// document shows. A new block is picked up by itself. The README runs first, then the guides in
// the order docs/README.md lists them (their reading order), then any guide it does not list, by
// name; one local run serves them all, so a guide may show what the ones before it left behind.
//
// How to write an example so that it stays true:
// - A ```sh block runs, command by command, from the repository root. Each document starts from a
//   fresh shell: its first block loads what it needs (`source .wrangler/demo.env`, `OP=…`).
// - What a command prints: the comment lines right under it (no blank line between).
//     # {"data":[…],"has_more":false}   JSON: fields compared, in their order; one value may span
//                                       several comment lines
//     # HTTP/1.1 200 OK                 with -i or -D -: the status line, then the headers named
//     # x-service-version: 2026-10-13   (others may come), then the body if shown
//     # 304                             anything else: text, line by line
//   A ```json block right after the block is what its last command prints. A comment that
//   explains the next command is separated from the command above it by a blank line.
// - Statuses: every answer of 400 or more is named, by a shown status line, by the status that
//   -w '%{http_code}' prints, or by a comment ending the command's line that starts with it:
//   `curl … # 404 ACCOUNT_NOT_FOUND_ERROR, no x-service-version` (after the first comma,
//   `Header: value` and `no Header` are checked against the answer; other words are prose).
// - Values that vary: `…` stands for any text (`"key_…"`, `"as_of":"…"`), for fields left out
//   (`{"account_id":"acc_1",…}`, or `"…": "…"` in a ```json block) and for items left out
//   (`[{…},…]`). An RFC 3339 timestamp, an HTTP date, a millisecond epoch or a UUID stands for
//   any other of its shape (a clock value must be the one shown or a current one), and
//   http://localhost:8787 for the run's origin.
// - Placeholders: `<key_id>` marks a value the reader copies from an earlier answer; the
//   paragraph above the block or a comment in it says which (`<key_id>`: …). The test uses the
//   `key_id` of the latest JSON an earlier command printed.
// - `<!-- not run: why -->` right above a block keeps it out (a Cloudflare account, a change to
//   the checkout); say why.
// - A block whose first line is `# In another shell` (or `# In a third shell`) runs alongside,
//   like a reader's other terminal: the test waits for its first shown line, expects all its
//   shown lines in order (other lines may come between) by the end of the document, then
//   presses Ctrl-C.
// - Files an example writes go under scratch/, which git ignores; any other new file fails.
// - The local run's log must stay free of stack traces and uncaught errors throughout.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  documentsInOrder,
  type Example,
  PrintedValues,
  type ShellBlock,
  shellBlocks,
} from "../support/node/doc-examples.ts";
import type { MatchContext } from "../support/node/doc-outputs.ts";
import { DocShell, OtherShell } from "../support/node/doc-shell.ts";
import { problemsOf, showsInOrder } from "../support/node/doc-verdict.ts";
import { freePort } from "../support/node/local-service.ts";
import { NpmStart, ROOT, STARTUP_MS, scratchCopy, shellEnv } from "../support/node/npm-start.ts";

const DOCUMENTS = documentsInOrder(ROOT);
const BLOCKS = new Map(
  DOCUMENTS.map((file) => [file, shellBlocks(file, readFileSync(path.join(ROOT, file), "utf8"))]),
);
const COMMAND_MS = 30_000;
const OTHER_SHELL_MS = 30_000;

const checkout = scratchCopy();
let run: NpmStart;
let ctx: MatchContext;
const printed = new PrintedValues();

function title(example: Example): string {
  const first = (example.text.split("\n")[0] ?? "").trim();
  return `${example.file}:${example.line} ${first.length > 90 ? `${first.slice(0, 89)}…` : first}`;
}

describe("the documentation's examples", () => {
  beforeAll(async () => {
    const port = await freePort();
    ctx = { base: `http://localhost:${port}`, since: Date.now() };
    run = new NpmStart(checkout.root, port);
    await run.ready();
  }, STARTUP_MS);

  afterAll(async () => {
    await run?.interrupt();
    checkout.remove();
    const examples = [...BLOCKS.values()].flat();
    const count = (kind: string) => examples.filter((b) => b.kind === kind);
    const ran = [...count("run"), ...count("other-shell")].flatMap((b) => b.examples);
    console.info(
      `docs examples: ${ran.length} commands run (${ran.filter((e) => e.placeholders.length > 0).length} ` +
        `with placeholders, ${ran.filter((e) => e.output.length > 0 || e.body !== undefined).length} ` +
        `showing output); ${count("not-run").length} blocks not run: ` +
        count("not-run")
          .map((b) => `${b.file}:${b.line} (${b.reason})`)
          .join(", "),
    );
  });

  for (const [file, blocks] of BLOCKS) {
    if (blocks.every((b) => b.kind === "not-run")) continue;
    describe(file, () => {
      let shell: DocShell;
      const others: { block: ShellBlock; shell: OtherShell; shown: string[] }[] = [];

      beforeAll(() => {
        shell = new DocShell(checkout.root, shellEnv());
      });
      afterAll(async () => {
        shell?.close();
        for (const other of others) await other.shell.interrupt();
      });

      for (const block of blocks) {
        if (block.kind === "not-run") continue;
        if (block.kind === "other-shell") {
          it(
            `${file}:${block.line} starts in another shell`,
            async () => {
              const shown = block.examples.flatMap((e) => e.output);
              const script = block.examples.map((e) => printed.fill(e, block)).join("\n");
              const other = new OtherShell(script, checkout.root, shellEnv());
              others.push({ block, shell: other, shown });
              const started = await other.waitFor(
                (lines) => showsInOrder(shown.slice(0, 1), lines, ctx),
                OTHER_SHELL_MS,
              );
              expect(started, `printed:\n${other.output}`).toBe(true);
            },
            OTHER_SHELL_MS + 5_000,
          );
          continue;
        }
        for (const example of block.examples) {
          it(
            title(example),
            async () => {
              const ran = await shell.run(printed.fill(example, block), COMMAND_MS);
              printed.remember(ran.stdout);
              const problems = problemsOf(example, ran, ctx);
              if (problems.length > 0) {
                throw new Error(
                  `${example.file}:${example.line}\n${example.text}\n\n${problems.join("\n")}`,
                );
              }
            },
            COMMAND_MS + 5_000,
          );
        }
      }

      if (blocks.some((b) => b.kind === "other-shell")) {
        it(
          `${file}: the other shells printed what the document shows`,
          async () => {
            for (const { block, shell: other, shown } of others) {
              await other.waitFor((lines) => showsInOrder(shown, lines, ctx), OTHER_SHELL_MS);
              await other.interrupt();
              const lines = other.lines();
              expect(
                showsInOrder(shown, lines, ctx),
                `${file}:${block.line} shows\n  ${shown.join("\n  ")}\nprinted\n  ${lines.join("\n  ")}`,
              ).toBe(true);
            }
          },
          2 * OTHER_SHELL_MS,
        );
      }
    });
  }

  it("leave behind only files that git ignores", () => {
    const before = new Set(checkout.files);
    const written = readdirSync(checkout.root, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && !d.parentPath.includes(`${path.sep}node_modules`))
      .map((d) => path.relative(checkout.root, path.join(d.parentPath, d.name)))
      .filter((f) => !before.has(f));
    const ignored = spawnSync("git", ["check-ignore", "--no-index", "--stdin"], {
      cwd: ROOT,
      input: written.join("\n"),
      encoding: "utf8",
    }).stdout.split("\n");
    expect(written.filter((f) => !ignored.includes(f))).toEqual([]);
    expect(written).toContain("scratch/statement.pdf");
  });

  it("keep the local run's log free of stack traces and uncaught errors", () => {
    const log = run.output;
    expect(log).not.toMatch(/\bstack:|Uncaught|\[ERROR\]|✘/);
  });
});
