// The page's measures, type sizes and neutral colours, and the two ways content is drawn: as part
// of the document's structure (read aloud, in order) or as an artifact (decoration, page furniture).
import { fonts } from "./fonts";

export const PAGE = { size: "LETTER", width: 612, height: 792, margin: 54 } as const;
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;

/** Neutral inks, each at least 7:1 against white. */
export const INK = { text: "#1a1a1a", muted: "#4d4d4d", rule: "#d0d0d0" } as const;

export const TYPE = {
  title: 20,
  heading: 12,
  subheading: 10.5,
  body: 9.5,
  table: 8.5,
  small: 8,
  detail: 7.5,
} as const;

/** Where content ends on every page: the footer is drawn below it, in the bottom margin. */
export const CONTENT_BOTTOM = PAGE.height - PAGE.margin;

export type Doc = PDFKit.PDFDocument;
export type StructElement = PDFKit.PDFStructureElement;

/** Draws decoration that is not content (a rule, a panel): marked so that readers skip it. */
export function artifact(
  doc: Doc,
  type: "Layout" | "Pagination",
  draw: () => void,
  attached?: ("Top" | "Bottom")[],
): void {
  doc.markContent("Artifact", attached ? { type, attached } : { type });
  draw();
  doc.endMarkedContent();
}

/** Adds a structure element to `parent`, its content drawn by `draw` in reading order. */
export function element(
  doc: Doc,
  parent: StructElement,
  tag: string,
  draw: () => void,
  options: PDFKit.Mixins.StructureElementOptions = {},
): void {
  parent.add(doc.struct(tag, options, draw));
}

/** Sets the font, size and colour of what is drawn next. */
export function ink(doc: Doc, weight: "regular" | "bold", size: number, colour: string): Doc {
  const { regular, bold } = fonts();
  return doc
    .font(weight === "bold" ? bold.postscriptName : regular.postscriptName)
    .fontSize(size)
    .fillColor(colour);
}
