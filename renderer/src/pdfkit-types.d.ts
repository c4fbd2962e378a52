// What pdfkit 0.20 accepts and @types/pdfkit (0.17) does not declare yet.
declare namespace PDFKit.Mixins {
  interface StructureElementOptions {
    /** A table header cell's scope, written as the cell's /A << /O /Table /Scope … >>. */
    scope?: "Row" | "Column" | "Both";
    /** The element's bounding box `[left, top, right, bottom]` on the page. */
    bbox?: [number, number, number, number];
  }

  interface PDFFont {
    /** A font fontkit has already parsed, shared by several documents. */
    registerFont(name: string, src: import("fontkit").Font): this;
  }

  interface PDFImage {
    /** Image bytes (PNG or JPEG) as any Uint8Array, not only a Buffer. */
    image(src: Uint8Array, x?: number, y?: number, options?: ImageOption): this;
  }
}

declare namespace PDFKit {
  interface PDFStructureElement {
    /** The element's dictionary: its attributes (/A) are written out when the element ends. */
    dictionary: { data: { A?: Record<string, unknown> } };
  }
}
