// Every link of the README and the guides in docs/ resolves: a relative link names a file or
// folder a fresh clone has, and its #anchor a heading of the Markdown file it names; an http(s)
// link is a well-formed URL (nothing is fetched). Every guide is listed in docs/README.md, the
// index a newcomer reads them from, and the README links to that index.
import { describe, expect, it } from "vitest";
import {
  anchorsOf,
  cloneOf,
  linkedFiles,
  linkProblems,
  linksOf,
  type Repository,
  slugOf,
} from "../support/node/doc-links.ts";
import { checkoutFiles, ROOT } from "../support/node/npm-start.ts";

const files = checkoutFiles();
const repo = cloneOf(ROOT, files);
const GUIDES = files.filter((f) => f.startsWith("docs/") && f.endsWith(".md")).sort();
const DOCUMENTS = ["README.md", ...GUIDES];

describe("the documentation's links", () => {
  for (const file of DOCUMENTS) {
    it(`${file}: every link resolves`, () => {
      expect(linksOf(repo.read(file)).length).toBeGreaterThan(0);
      expect(linkProblems(file, repo)).toEqual([]);
    });
  }

  it("lists every guide in docs/README.md, and the README links to it", () => {
    const listed = linkedFiles("docs/README.md", repo.read("docs/README.md"));
    expect(GUIDES.filter((g) => g !== "docs/README.md" && !listed.has(g))).toEqual([]);
    expect(linkedFiles("README.md", repo.read("README.md")).has("docs/README.md")).toBe(true);
  });
});

describe("checking a link", () => {
  const docs: Record<string, string> = {
    "README.md": [
      "# Title",
      "## Set-up: `npm start` & more",
      "## Set-up: `npm start` & more",
      "[ok](docs/guide.md#the-guide) [self](#set-up-npm-start--more-1) [dir](docs/)",
      "[gone](docs/missing.md) [bad anchor](docs/guide.md#nope) [up](../elsewhere.md)",
      "[code anchor](src/index.ts#L1) [web](https://example.com/a?b=c#d) [mail](mailto:a@b.c)",
      "[broken url](https://) ![picture](docs/sample.png)",
      "`[in code](not/checked.md)`",
      "```sh",
      "[in a block](not/checked.md)",
      "```",
    ].join("\n"),
    "docs/guide.md": "# The guide\n\n[back](../README.md#title)\n",
  };
  const fake = cloneOf("/", [...Object.keys(docs), "src/index.ts", "docs/sample.png"]);
  const repoOf: Repository = { exists: fake.exists, read: (f) => docs[f] ?? "" };

  it("finds each broken link and nothing else, code left out", () => {
    expect(linkProblems("README.md", repoOf)).toEqual([
      "README.md: [gone](docs/missing.md): no such file or folder: docs/missing.md",
      "README.md: [bad anchor](docs/guide.md#nope): docs/guide.md has no heading whose anchor is #nope",
      "README.md: [up](../elsewhere.md): points outside the repository",
      "README.md: [code anchor](src/index.ts#L1): an anchor into src/index.ts, which is not a Markdown file",
      "README.md: [mail](mailto:a@b.c): only http(s) links are allowed outside the repository",
      "README.md: [broken url](https://): not a well-formed URL",
    ]);
    expect(linkProblems("docs/guide.md", repoOf)).toEqual([]);
  });

  it("makes anchors as GitHub does, numbering repeated headings", () => {
    expect(slugOf("Shards: what was built")).toBe("shards-what-was-built");
    expect(slugOf("Rate limits (per key)")).toBe("rate-limits-per-key");
    expect([...anchorsOf(docs["README.md"] ?? "")]).toEqual([
      "title",
      "set-up-npm-start--more",
      "set-up-npm-start--more-1",
    ]);
  });
});
