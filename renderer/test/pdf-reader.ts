// Reads a rendered document back inside the Workers runtime: its text with pdfjs-dist (as a
// viewer or screen reader extracts it), its structure tree, and its raw objects with pdf-lib.
import "pdfjs-dist/legacy/build/pdf.worker.mjs";
import type { TextItem, TextMarkedContent } from "pdfjs-dist/types/src/display/api";

/**
 * pdfjs-dist takes any runtime with Node's `process` for Node and then looks for a native canvas,
 * which it does not need to read text and tags and which workerd cannot load: it is loaded while
 * `process` does not look like Node's.
 */
async function loadPdfjs() {
  const tag = Object.getOwnPropertyDescriptor(process, Symbol.toStringTag);
  Object.defineProperty(process, Symbol.toStringTag, { value: "workerd", configurable: true });
  try {
    return await import("pdfjs-dist/legacy/build/pdf.mjs");
  } finally {
    if (tag) Object.defineProperty(process, Symbol.toStringTag, tag);
    else Reflect.deleteProperty(process, Symbol.toStringTag);
  }
}

const pdfjs = await loadPdfjs();

export interface StructNode {
  role?: string;
  alt?: string;
  scope?: string;
  children?: (StructNode | { type: "content" })[];
}

/**
 * Text items joined as a reader reads them: one word when the next item starts where the last
 * ended on the same line (a kerned pair such as "7." ends an item in pdfjs-dist), else a space;
 * runs of whitespace folded to one.
 */
export function joinText(items: TextItem[]): string {
  // From where one item ends to where the next starts: a kern moves left (up to half an em),
  // a space moves right (a quarter of an em or more).
  const gap = (a: TextItem, b: TextItem) =>
    (b.transform[4] as number) - ((a.transform[4] as number) + a.width);
  let text = "";
  let last: TextItem | undefined;
  for (const item of items) {
    const adjacent =
      last !== undefined &&
      !last.hasEOL &&
      item.str !== "" &&
      Math.abs((item.transform[5] as number) - (last.transform[5] as number)) < 0.5 &&
      Math.abs(gap(last, item) + 0.2 * item.height) < 0.3 * item.height;
    text += adjacent ? item.str : ` ${item.str}`;
    if (item.str !== "" || item.hasEOL) last = item;
  }
  return text.replace(/\s+/g, " ").trim();
}

export interface ReadDocument {
  pages: number;
  /** Each page's text (joinText). */
  pageText: string[];
  /** Page 1's structure tree, as pdfjs-dist exposes it to assistive technology. */
  structure: StructNode;
}

export async function readPdf(bytes: Uint8Array): Promise<ReadDocument> {
  // pdfjs-dist takes ownership of the buffer it is given: hand it a copy.
  const task = pdfjs.getDocument({ data: bytes.slice(), verbosity: 0 });
  const pdf = await task.promise;
  const pageText: string[] = [];
  let structure: StructNode = {};
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    pageText.push(joinText(content.items.filter((item): item is TextItem => "str" in item)));
    if (n === 1) structure = (await page.getStructTree()) as StructNode;
  }
  await task.destroy();
  return { pages: pdf.numPages, pageText, structure };
}

/** A run of a page's text inside one marked-content sequence: structure (its MCID) or artifact. */
export interface MarkedRun {
  /** The MCID of the structure element's content; undefined for an artifact or unmarked text. */
  mcid?: number;
  artifact: boolean;
  /** Its text (joinText). */
  text: string;
  /** The top of its first text item on the page, in points from the top. */
  top: number;
}

/** Each page's marked-content sequences, in the order the page draws them. */
export async function markedContentOf(bytes: Uint8Array): Promise<MarkedRun[][]> {
  const task = pdfjs.getDocument({ data: bytes.slice(), verbosity: 0 });
  const pdf = await task.promise;
  const pages: MarkedRun[][] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const height = page.view[3] as number;
    const content = await page.getTextContent({ includeMarkedContent: true });
    const runs: MarkedRun[] = [];
    let open: { mcid?: number; artifact: boolean; parts: TextItem[]; top?: number } | undefined;
    // pdfjs-dist gives each marked-content item its tag, which its types leave out.
    for (const item of content.items as (TextItem | (TextMarkedContent & { tag?: string }))[]) {
      if ("type" in item && item.type === "beginMarkedContent") {
        open = { artifact: item.tag === "Artifact", parts: [] };
      } else if ("type" in item && item.type === "beginMarkedContentProps") {
        const mcid = /_mc(\d+)$/.exec(item.id ?? "")?.[1];
        open = {
          artifact: item.tag === "Artifact",
          parts: [],
          ...(mcid === undefined ? {} : { mcid: Number(mcid) }),
        };
      } else if ("type" in item && item.type === "endMarkedContent") {
        if (open) {
          const run: MarkedRun = {
            artifact: open.artifact,
            text: joinText(open.parts),
            top: open.top ?? 0,
          };
          if (open.mcid !== undefined) run.mcid = open.mcid;
          runs.push(run);
        }
        open = undefined;
      } else if ("str" in item && open) {
        open.parts.push(item);
        if (item.str.trim() !== "")
          open.top ??= height - (item.transform[5] as number) - item.height;
      }
    }
    pages.push(runs);
  }
  await task.destroy();
  return pages;
}
