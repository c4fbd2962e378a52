// A tagged document read back whole: its structure tree from the catalog (pdf-lib), every element
// with its role, table attributes and the marked content it owns on each page; and each page's
// marked content with its text (pdfjs-dist, as a screen reader extracts it), structure or
// artifact. Together they say which text belongs to which element, on which page, in which order.
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRef,
  PDFString,
} from "pdf-lib";
import { type MarkedRun, markedContentOf } from "./pdf-reader";

export interface MarkedRef {
  page: number;
  mcid: number;
}

export interface TaggedElement {
  role: string;
  /** A table header cell's scope (/A /Scope). */
  scope?: string;
  /** A table cell's column span (/A /ColSpan). */
  colSpan?: number;
  /** The expansion of an abbreviation (/E). */
  expanded?: string;
  kids: (TaggedElement | MarkedRef)[];
}

export interface TaggedDocument {
  /** The structure tree root's elements. */
  roots: TaggedElement[];
  /** Each page's marked content, in content-stream order (1-based pages at index page - 1). */
  pages: MarkedRun[][];
  /** The text an element owns (its marked content and its descendants'), in tree order. */
  textOf(element: TaggedElement): string;
  /** Every element of the tree, depth first: reading order. */
  elements(): TaggedElement[];
}

const name = (key: string) => PDFName.of(key);

const isElement = (kid: TaggedElement | MarkedRef): kid is TaggedElement => "role" in kid;

function text(object: PDFObject | undefined): string | undefined {
  return object instanceof PDFString || object instanceof PDFHexString
    ? object.decodeText()
    : undefined;
}

export async function readTagged(bytes: Uint8Array): Promise<TaggedDocument> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const pageOf = new Map(pdf.getPages().map((page, i) => [page.ref.toString(), i + 1]));
  const page = (ref: PDFObject | undefined) =>
    ref instanceof PDFRef ? (pageOf.get(ref.toString()) ?? 0) : 0;

  const walk = (dict: PDFDict): TaggedElement => {
    const element: TaggedElement = {
      role: (dict.get(name("S")) as PDFName).decodeText(),
      kids: [],
    };
    const attributes = dict.lookup(name("A"));
    for (const a of attributes instanceof PDFArray ? attributes.asArray() : [attributes]) {
      const attribute = a instanceof PDFRef ? pdf.context.lookup(a) : a;
      if (!(attribute instanceof PDFDict)) continue;
      const scope = attribute.get(name("Scope"));
      if (scope instanceof PDFName) element.scope = scope.decodeText();
      const span = attribute.get(name("ColSpan"));
      if (span instanceof PDFNumber) element.colSpan = span.asNumber();
    }
    const expanded = text(dict.lookup(name("E")));
    if (expanded !== undefined) element.expanded = expanded;
    const own = page(dict.get(name("Pg")));
    const k = dict.lookup(name("K"));
    for (const kid of k instanceof PDFArray ? k.asArray() : k === undefined ? [] : [k]) {
      const value = kid instanceof PDFRef ? pdf.context.lookup(kid) : kid;
      if (value instanceof PDFNumber) element.kids.push({ page: own, mcid: value.asNumber() });
      else if (value instanceof PDFDict && value.get(name("Type")) === name("MCR")) {
        element.kids.push({
          page: page(value.get(name("Pg"))),
          mcid: (value.get(name("MCID")) as PDFNumber).asNumber(),
        });
      } else if (value instanceof PDFDict) element.kids.push(walk(value));
    }
    return element;
  };

  const root = pdf.catalog.lookup(name("StructTreeRoot"), PDFDict);
  const top = root.lookup(name("K"));
  const roots = (top instanceof PDFArray ? top.asArray() : [top])
    .map((ref) => (ref instanceof PDFRef ? pdf.context.lookup(ref) : ref))
    .filter((d): d is PDFDict => d instanceof PDFDict)
    .map(walk);

  const pages = await markedContentOf(bytes);
  const runText = new Map<string, string>();
  for (const [i, runs] of pages.entries()) {
    for (const run of runs) {
      if (run.mcid !== undefined) runText.set(`${i + 1}:${run.mcid}`, run.text);
    }
  }
  const textOf = (element: TaggedElement): string =>
    element.kids
      .map((kid) => (isElement(kid) ? textOf(kid) : (runText.get(`${kid.page}:${kid.mcid}`) ?? "")))
      .filter((t) => t !== "")
      .join(" ");
  const elements = () => {
    const all: TaggedElement[] = [];
    const visit = (e: TaggedElement) => {
      all.push(e);
      for (const kid of e.kids) if (isElement(kid)) visit(kid);
    };
    for (const r of roots) visit(r);
    return all;
  };
  return { roots, pages, textOf, elements };
}

/** The element's own element children. */
export const childElements = (element: TaggedElement): TaggedElement[] =>
  element.kids.filter(isElement);

/** Every marked-content reference under the element, in tree order. */
export function markedRefs(element: TaggedElement): MarkedRef[] {
  return element.kids.flatMap((kid) => (isElement(kid) ? markedRefs(kid) : [kid]));
}
