// The document as assistive technology meets it: a tagged PDF (PDF/UA-1) with its language, a
// title shown as the window title, a structure tree in reading order with headings, a real table
// for the summary, the logo as a figure with alternative text, every mark tagged or an artifact,
// and every font embedded.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { StatementDocumentInput } from "../src/statement-document";
import { JPEG_LOGO, PNG_LOGO } from "./logo-fixtures";
import { readObjects, unmarkedOperators } from "./pdf-objects";
import { readPdf, type StructNode } from "./pdf-reader";
import { EVERY_LINE, QUIET_CYCLE, withLogo } from "./sample-statements";

const render = (input: StatementDocumentInput) => env.STATEMENT_RENDERER.render(input);

/** Every element of the tree, depth first (reading order), with its parent's role. */
function elements(node: StructNode, parent = ""): (StructNode & { parent: string })[] {
  const own = node.role ? [{ ...node, parent }] : [];
  const children = (node.children ?? []).filter((c): c is StructNode => "role" in c);
  return [...own, ...children.flatMap((c) => elements(c, node.role ?? parent))];
}

describe("the catalog", () => {
  it("declares a tagged PDF/UA-1 document in US English, titled, the title shown by viewers", async () => {
    const { catalog } = await readObjects(await render(EVERY_LINE));
    expect(catalog).toMatchObject({
      marked: true,
      lang: "en-US",
      displayDocTitle: true,
      title: "Acme Card statement",
      hasStructTreeRoot: true,
      hasParentTree: true,
      tabs: ["/S"],
    });
    expect(catalog.metadata).toContain("<pdfuaid:part>1</pdfuaid:part>");
    expect(catalog.metadata).toContain("Acme Card statement");
  });

  it("escapes a product name's XML characters in the XMP metadata, and keeps them in the title", async () => {
    const name = `Tom & Jerry <Cards> "O'Neil"`;
    const input = { ...EVERY_LINE, product: { ...EVERY_LINE.product, display_name: name } };
    const { catalog } = await readObjects(await render(input));
    expect(catalog.title).toBe(`${name} statement`);
    expect(catalog.metadata).toContain(
      "Tom &amp; Jerry &lt;Cards&gt; &quot;O&apos;Neil&quot; statement",
    );
    expect(catalog.metadata).not.toContain("<Cards>");
    // Every & in the metadata starts an entity: the XML stays well formed.
    expect(catalog.metadata.match(/&(?!(amp|lt|gt|quot|apos);)/g)).toBeNull();
    expect(catalog.metadata).toContain("<pdfuaid:part>1</pdfuaid:part>");
  });

  it("embeds every font, each with a map back to Unicode", async () => {
    for (const input of [EVERY_LINE, QUIET_CYCLE, withLogo(EVERY_LINE, PNG_LOGO)]) {
      const { fonts } = await readObjects(await render(input));
      expect(fonts.map((f) => f.name.replace(/^\/[A-Z]{6}\+/, "")).sort()).toEqual([
        "Inter-Regular",
        "Inter-SemiBold",
      ]);
      for (const font of fonts) expect(font).toMatchObject({ embedded: true, hasToUnicode: true });
    }
  });
});

describe("marked content", () => {
  it("tags every mark on the page as structure or as an artifact", async () => {
    for (const input of [EVERY_LINE, QUIET_CYCLE, withLogo(EVERY_LINE, JPEG_LOGO)]) {
      const { contents } = await readObjects(await render(input));
      expect(contents).toHaveLength(1);
      expect(contents[0]).toContain("/Artifact");
      expect(unmarkedOperators(contents[0] as string)).toEqual([]);
    }
  });

  it("marks the page number and footer as pagination artifacts", async () => {
    const { contents } = await readObjects(await render(EVERY_LINE));
    expect(contents[0]).toMatch(/\/Artifact <<\s*\/Type \/Pagination\s*\/Attached \[\/Bottom\]/);
  });
});

describe("the structure tree", () => {
  it("reads in order: title, the statement's dates, what to pay, then the summary", async () => {
    const { structure } = await readPdf(await render(EVERY_LINE));
    const tree = elements(structure);
    // pdfjs-dist names the structure tree root "Root"; the document element is its only child.
    expect(tree.filter((e) => e.parent === "Root").map((e) => e.role)).toEqual(["Document"]);
    const blocks = tree.filter((e) => e.parent === "Document").map((e) => e.role);
    expect(blocks).toEqual(["H1", "P", "Sect", "Sect", "Sect", "P", "P"]);
    const headings = tree.filter((e) => /^H\d$/.test(e.role ?? "")).map((e) => e.role);
    expect(headings).toEqual(["H1", "H2", "H2", "H2"]);
  });

  it("holds the summary as a table: a header row of column headers, a row header per line", async () => {
    for (const [input, lines] of [
      [EVERY_LINE, 8],
      [QUIET_CYCLE, 2],
    ] as const) {
      const tree = elements((await readPdf(await render(input))).structure);
      const tables = tree.filter((e) => e.role === "Table");
      expect(tables).toHaveLength(1);
      const rows = (tables[0]?.children ?? []) as StructNode[];
      expect(rows.map((r) => r.role)).toEqual(Array(lines + 1).fill("TR"));
      const cells = rows.map((r) => (r.children as StructNode[]).map((c) => [c.role, c.scope]));
      expect(cells[0]).toEqual([
        ["TH", "Column"],
        ["TH", "Column"],
      ]);
      for (const row of cells.slice(1)) {
        expect(row).toEqual([
          ["TH", "Row"],
          ["TD", undefined],
        ]);
      }
    }
  });

  it("gives the logo a figure with its alternative text, first in reading order", async () => {
    for (const logo of [PNG_LOGO, JPEG_LOGO]) {
      const tree = elements((await readPdf(await render(withLogo(EVERY_LINE, logo)))).structure);
      const figures = tree.filter((e) => e.role === "Figure");
      expect(figures).toHaveLength(1);
      expect(figures[0]?.alt).toBe("Acme");
      expect(tree.filter((e) => e.parent === "Document")[0]?.role).toBe("Figure");
    }
    const plain = elements((await readPdf(await render(EVERY_LINE))).structure);
    expect(plain.some((e) => e.role === "Figure")).toBe(false);
  });
});
