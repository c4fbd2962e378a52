// Where the next block goes: down the page, and onto a new page when it would not fit. A block
// is never split: whoever draws asks for the height it needs first.
import type { Accent } from "./accent";
import {
  artifact,
  CONTENT_BOTTOM,
  CONTENT_WIDTH,
  type Doc,
  INK,
  ink,
  PAGE,
  type StructElement,
  TYPE,
} from "./page-style";

export class PageFlow {
  /** The top of the next block on the current page. */
  y: number;

  /**
   * @param runningHead what every page after the first says at its top (the product, the
   *   account, the closing date): page furniture, marked as a pagination artifact.
   */
  constructor(
    private readonly doc: Doc,
    top: number,
    private readonly runningHead: { text: string; colour: string },
  ) {
    this.y = top;
  }

  /** Whether `height` points fit between here and the bottom of the page. */
  fits(height: number): boolean {
    return this.y + height <= CONTENT_BOTTOM;
  }

  /** Starts a new page unless `height` fits on this one; says whether it did. */
  keep(height: number): boolean {
    if (this.fits(height)) return false;
    this.newPage();
    return true;
  }

  newPage(): void {
    const { doc, runningHead } = this;
    doc.addPage();
    artifact(
      doc,
      "Pagination",
      () => {
        doc.rect(0, 0, PAGE.width, 6).fill(runningHead.colour);
        ink(doc, "regular", TYPE.small, INK.muted).text(runningHead.text, PAGE.margin, 26, {
          width: CONTENT_WIDTH,
          lineBreak: false,
        });
      },
      ["Top"],
    );
    this.y = PAGE.margin;
  }
}

/** A section's H2, kept on the page of what follows it (the room for a heading and two rows). */
export function sectionHeading(
  doc: Doc,
  flow: PageFlow,
  section: StructElement,
  text: string,
  accent: Accent,
  keepWith = 110,
): void {
  flow.keep(26 + keepWith);
  const y = flow.y;
  section.add(
    doc.struct("H2", {}, () => {
      ink(doc, "bold", TYPE.heading, accent.strong).text(text, PAGE.margin, y, {
        lineBreak: false,
      });
    }),
  );
  flow.y += 26;
}
