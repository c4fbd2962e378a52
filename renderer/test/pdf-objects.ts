// The document's low-level objects, read with pdf-lib: the catalog entries a tagged PDF needs, the
// fonts and whether each is embedded, and whether every mark on a page is tagged.
import {
  decodePDFRawStream,
  PDFArray,
  PDFBool,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFRef,
  type PDFString,
} from "pdf-lib";

const name = (key: string) => PDFName.of(key);

export interface Catalog {
  marked: boolean;
  lang: string | undefined;
  displayDocTitle: boolean;
  title: string | undefined;
  hasStructTreeRoot: boolean;
  hasParentTree: boolean;
  /** The XMP metadata stream's text. */
  metadata: string;
  /** Each page's tab order (/Tabs). */
  tabs: (string | undefined)[];
}

export interface FontReport {
  name: string;
  subtype: string;
  embedded: boolean;
  hasToUnicode: boolean;
}

function streamText(stream: unknown): string {
  if (!(stream instanceof PDFRawStream)) return "";
  return new TextDecoder().decode(decodePDFRawStream(stream).decode());
}

export async function readObjects(bytes: Uint8Array) {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const catalog = pdf.catalog;
  const viewer = catalog.lookupMaybe(name("ViewerPreferences"), PDFDict);
  const structRoot = catalog.lookupMaybe(name("StructTreeRoot"), PDFDict);
  const info: Catalog = {
    marked: catalog.lookupMaybe(name("MarkInfo"), PDFDict)?.get(name("Marked")) === PDFBool.True,
    lang: (catalog.lookup(name("Lang")) as PDFString | undefined)?.decodeText(),
    displayDocTitle: viewer?.get(name("DisplayDocTitle")) === PDFBool.True,
    title: pdf.getTitle(),
    hasStructTreeRoot: structRoot?.get(name("Type")) === name("StructTreeRoot"),
    hasParentTree: structRoot?.has(name("ParentTree")) ?? false,
    metadata: streamText(catalog.lookup(name("Metadata"))),
    tabs: pdf.getPages().map((p) => p.node.get(name("Tabs"))?.toString()),
  };

  const fonts: FontReport[] = [];
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || object.get(name("Type")) !== name("Font")) continue;
    const subtype = object.get(name("Subtype"))?.toString() ?? "";
    if (subtype === "/CIDFontType2" || subtype === "/CIDFontType0") continue; // read via its Type0
    const descendant = object.lookupMaybe(name("DescendantFonts"), PDFArray)?.lookup(0, PDFDict);
    const descriptor = (descendant ?? object).lookupMaybe(name("FontDescriptor"), PDFDict);
    const embedded = ["FontFile", "FontFile2", "FontFile3"].some((k) => descriptor?.has(name(k)));
    fonts.push({
      name: object.get(name("BaseFont"))?.toString() ?? "",
      subtype,
      embedded,
      hasToUnicode: object.get(name("ToUnicode")) instanceof PDFRef,
    });
  }

  const contents = pdf.getPages().map((page) => {
    const ref = page.node.get(name("Contents"));
    return streamText(ref instanceof PDFRef ? pdf.context.lookup(ref) : ref);
  });
  return { catalog: info, fonts, contents };
}

/** Painting and text operators of a content stream drawn outside any marked-content sequence. */
export function unmarkedOperators(content: string): string[] {
  const painting = new Set([
    "TJ",
    "Tj",
    "'",
    '"',
    "f",
    "f*",
    "F",
    "S",
    "s",
    "B",
    "B*",
    "b",
    "b*",
    "Do",
    "sh",
  ]);
  let depth = 0;
  const unmarked: string[] = [];
  for (const line of content.split("\n")) {
    const operator = line.trim().split(/\s+/).at(-1) ?? "";
    if (operator === "BDC" || operator === "BMC") depth += 1;
    else if (operator === "EMC") depth -= 1;
    else if (painting.has(operator) && depth === 0) unmarked.push(line.trim());
  }
  return unmarked;
}
