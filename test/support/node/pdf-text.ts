// A downloaded statement document's text, as a viewer or screen reader extracts it (pdfjs-dist).
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/** Every page's text, items joined by a space, runs of whitespace folded to one. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  // pdfjs-dist takes ownership of the buffer it is given: hand it a copy.
  const task = getDocument({ data: bytes.slice(), verbosity: 0 });
  const pdf = await task.promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
  }
  await task.destroy();
  return pages.join(" ").replace(/\s+/g, " ").trim();
}
