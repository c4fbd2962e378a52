// Every path of the repository that the README or a guide names in its prose or code spans
// (`src/…`, `test/…`, `scripts/…`, `docs/…`) exists in a fresh clone, unless the guide writes it
// itself. The README's map ("Where things are") names every folder of src/, and the README
// lists every guide. All of it is read from the tree, so a folder added or renamed is asked for.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cloneOf, linkedFiles, type Repository } from "../support/node/doc-links.ts";
import { namedPaths, pathProblems, sectionOf, writtenPaths } from "../support/node/doc-paths.ts";
import { checkoutFiles, ROOT } from "../support/node/npm-start.ts";

const files = checkoutFiles();
const repo = cloneOf(ROOT, files);
const GUIDES = files.filter((f) => f.startsWith("docs/") && f.endsWith(".md")).sort();
const DOCUMENTS = ["README.md", ...GUIDES];
/** The repository's top-level folders: a path a document names starts with one of them. */
const TOP_FOLDERS = [
  ...new Set(files.filter((f) => f.includes("/")).map((f) => f.split("/")[0] ?? "")),
];
/** The folders directly under src/, each as the map names it (`src/keys/`). */
const SOURCE_FOLDERS = [
  ...new Set(
    files
      .filter((f) => f.startsWith("src/") && f.split("/").length > 2)
      .map((f) => `src/${f.split("/")[1]}/`),
  ),
].sort();

describe("the paths the documentation names", () => {
  for (const file of DOCUMENTS) {
    it(`${file}: every path it names exists`, () => {
      expect(pathProblems(file, repo, TOP_FOLDERS)).toEqual([]);
    });
  }

  it("the README's map names every folder of src/", () => {
    const map = sectionOf(repo.read("README.md"), "Where things are");
    expect(map.length).toBeGreaterThan(0);
    expect(SOURCE_FOLDERS.filter((folder) => !map.includes(folder))).toEqual([]);
  });

  it("the README lists every guide", () => {
    const listed = linkedFiles("README.md", repo.read("README.md"));
    expect(GUIDES.filter((guide) => !listed.has(guide))).toEqual([]);
  });
});

describe("checking the paths a document names", () => {
  const guide = [
    "# A guide",
    "The shell is `src/dashboard/`, its layout src/dashboard/layout.tsx; see `src/gone.ts`.",
    "A placeholder: `src/<feature>/routes.ts`; a URL: https://example.com/src/nowhere.ts.",
    "",
    "**1. Write the module**, in `src/products/routes.ts`:",
    "",
    "```ts",
    'import { missing } from "src/in-a-block.ts";',
    "```",
    "",
    "Then run `npx biome check --write src/products` and read test/missing.test.ts.",
  ].join("\n");
  const fake = cloneOf("/", ["src/dashboard/layout.tsx", "docs/guide.md"]);
  const repoOf: Repository = { exists: fake.exists, read: () => guide };
  const top = ["src", "test", "docs"];

  it("finds paths in prose and code spans, not in code blocks or URLs", () => {
    expect(namedPaths(guide, top).map((p) => `${p.path} (${p.in})`)).toEqual([
      "src/dashboard (code span)",
      "src/dashboard/layout.tsx (prose)",
      "src/gone.ts (code span)",
      "src (code span)",
      "src/products/routes.ts (code span)",
      "src/products (code span)",
      "test/missing.test.ts (prose)",
    ]);
  });

  it("takes a path named just before a code block to be one the guide writes", () => {
    expect([...writtenPaths(guide, top)]).toEqual(["src/products/routes.ts"]);
  });

  it("reports each missing path once, and none the guide writes", () => {
    expect(pathProblems(path.posix.join("docs", "guide.md"), repoOf, top)).toEqual([
      "docs/guide.md: src/gone.ts (in code span): no such file or folder",
      "docs/guide.md: test/missing.test.ts (in prose): no such file or folder",
    ]);
  });

  it("reads a section down to the next heading of its level", () => {
    const readme = "# T\n## Where things are\nsrc/a/\n### More\nsrc/b/\n## Next\nsrc/c/\n";
    const section = sectionOf(readme, "Where things are");
    expect(section).toContain("src/b/");
    expect(section).not.toContain("src/c/");
  });
});
