// How the documentation test reads a document and judges an output (test/support/node/doc-*.ts):
// the conventions test/e2e/docs-examples.test.ts states, each held to, so a drifted example fails
// and a faithful one passes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { documentsInOrder, shellBlocks } from "../support/node/doc-examples.ts";
import { jsonDifferences, matchesShown, parseShownJson } from "../support/node/doc-outputs.ts";

const ctx = { base: "http://localhost:41234", since: Date.now() };
const fence = "```";

describe("reading a document's shell blocks", () => {
  const doc = [
    "Intro.",
    "",
    `${fence}sh`,
    "source .wrangler/demo.env     # keys",
    'curl -s "$S" \\',
    '  -H "x: y"                    # 404 NOT_FOUND, no x-service-version',
    '# {"a":1,',
    '#   "b":2}',
    "",
    "# Prose about the next command.",
    "A=$(echo 'one",
    "two # not a comment')",
    "# one",
    "# two",
    'curl -s "$BASE/keys/<key_id>"',
    fence,
    "",
    `${fence}json`,
    '{"c": 3}',
    fence,
    "",
    "<!-- not run: needs an account -->",
    `${fence}sh`,
    "npx wrangler login",
    fence,
    "",
    `${fence}sh`,
    "# In a third shell:",
    "npm run webhooks:listen",
    "# Listening on …",
    fence,
    "",
    `${fence}ts`,
    "const x = 1;",
    fence,
  ].join("\n");
  const [run, notRun, other, ...rest] = shellBlocks("DOC.md", doc);

  it("splits commands, with their continuation lines, trailing comments and shown output", () => {
    expect(rest).toEqual([]);
    expect(run?.kind).toBe("run");
    expect(run?.examples.map((e) => [e.line, e.text.split("\n").length, e.annotation])).toEqual([
      [4, 1, "keys"],
      [5, 2, "404 NOT_FOUND, no x-service-version"],
      [11, 2, undefined],
      [15, 1, undefined],
    ]);
    expect(run?.examples[1]?.output).toEqual(['{"a":1,', '  "b":2}']);
    expect(run?.examples[2]?.output).toEqual(["one", "two"]);
    expect(run?.comments).toEqual(["Prose about the next command."]);
  });

  it("gives a json block to the last command above it, and finds placeholders", () => {
    expect(run?.examples[3]?.body).toBe('{"c": 3}');
    expect(run?.examples[3]?.placeholders).toEqual(["key_id"]);
    expect(run?.intro).toBe("Intro.");
  });

  it("keeps a block marked not run out, with its reason, and runs another shell's alongside", () => {
    expect(notRun).toMatchObject({ kind: "not-run", reason: "needs an account" });
    expect(other?.kind).toBe("other-shell");
    expect(other?.examples[0]?.output).toEqual(["Listening on …"]);
  });

  it("refuses a command that never ends", () => {
    expect(() => shellBlocks("BAD.md", `${fence}sh\necho 'open\n${fence}`)).toThrow(
      "BAD.md:2: the command never ends",
    );
  });
});

describe("judging a shown value", () => {
  it("reads … as any text, and the example origin as the run's", () => {
    expect(matchesShown("key_…", "key_00Vc4", ctx)).toBe(true);
    expect(matchesShown("key_…", "sk_live_1", ctx)).toBe(false);
    expect(matchesShown("http://localhost:8787/x?s=…", `${ctx.base}/x?s=abc`, ctx)).toBe(true);
    expect(matchesShown("http://localhost:8787/x", "http://localhost:8787/y", ctx)).toBe(false);
  });

  it("takes a timestamp for the one shown or a current one, never a stale one", () => {
    const shown = "2026-10-01T00:00:00.000Z";
    expect(matchesShown(shown, shown, ctx)).toBe(true);
    expect(matchesShown(shown, new Date().toISOString(), ctx)).toBe(true);
    expect(matchesShown(shown, "2020-01-01T00:00:00.000Z", ctx)).toBe(false);
    expect(matchesShown(shown, "2026-10-01", ctx)).toBe(false);
    const epoch = `expires=${Date.now() + 3_600_000}`;
    expect(matchesShown("expires=1795648021064", epoch, ctx)).toBe(true);
    expect(matchesShown("Wed, 25 Nov 2026 22:07:01 GMT", new Date().toUTCString(), ctx)).toBe(true);
    expect(matchesShown("87f0bc26-58a1-403c-b699-7b42b01f3b39", crypto.randomUUID(), ctx)).toBe(
      true,
    );
  });

  it("compares JSON field by field, in order, with … for what is left out", () => {
    const shown = parseShownJson('{"data":[{"id":"a_…","n":…},…],"more":false}');
    expect(jsonDifferences(shown, { data: [{ id: "a_1", n: 5 }, {}], more: false }, ctx)).toEqual(
      [],
    );
    expect(jsonDifferences(shown, { data: [{ id: "a_1", n: 5, x: 1 }], more: false }, ctx)).toEqual(
      ["$.data[0]: not shown: x"],
    );
    expect(jsonDifferences(shown, { more: false, data: [{ n: 1, id: "a_1" }] }, ctx)).toEqual([
      "$: fields in the order more, data, shown data, more",
      "$.data[0]: fields in the order n, id, shown id, n",
    ]);
    expect(jsonDifferences(shown, { data: [], more: true }, ctx)).toEqual([
      "$.data: expected at least 1 items, got 0",
      "$.more: expected false, got true",
    ]);
    const pretty = parseShownJson('{"id": "a", "…": "…"}');
    expect(jsonDifferences(pretty, { id: "a", other: 1 }, ctx)).toEqual([]);
  });
});

describe("the order documents run in", () => {
  it("is the README, then the guides as their index lists them, then any other by name", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "doc-order-"));
    try {
      mkdirSync(path.join(root, "docs"));
      const index = "1. [Tour](tour.md)\n2. [Hooks](webhooks.md#delivery), [Tour](tour.md)\n";
      writeFileSync(path.join(root, "docs", "README.md"), index);
      for (const name of ["tour.md", "webhooks.md", "b.md", "a.md", "notes.txt"]) {
        writeFileSync(path.join(root, "docs", name), "");
      }
      expect(documentsInOrder(root)).toEqual([
        "README.md",
        "docs/README.md",
        "docs/tour.md",
        "docs/webhooks.md",
        "docs/a.md",
        "docs/b.md",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
