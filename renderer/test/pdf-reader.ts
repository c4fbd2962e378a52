// Reads a rendered document back inside the Workers runtime: its text with pdfjs-dist (as a
// viewer or screen reader extracts it), its structure tree, and its raw objects with pdf-lib.
import "pdfjs-dist/legacy/build/pdf.worker.mjs";

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

export interface ReadDocument {
  pages: number;
  /** Each page's text, items joined by a space, runs of whitespace folded to one. */
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
    const text = content.items.map((item) => ("str" in item ? item.str : "")).join(" ");
    pageText.push(text.replace(/\s+/g, " ").trim());
    if (n === 1) structure = (await page.getStructTree()) as StructNode;
  }
  await task.destroy();
  return { pages: pdf.numPages, pageText, structure };
}
