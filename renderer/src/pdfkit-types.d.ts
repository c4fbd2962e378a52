// What pdfkit 0.20 accepts and @types/pdfkit (0.17) does not declare yet.
declare namespace PDFKit.Mixins {
  interface StructureElementOptions {
    /** A table header cell's scope, written as the cell's /A << /O /Table /Scope … >>. */
    scope?: "Row" | "Column" | "Both";
    /** The element's bounding box `[left, top, right, bottom]` on the page. */
    bbox?: [number, number, number, number];
  }
}

declare namespace PDFKit {
  interface PDFDocumentOptions {
    /** pdfkit 0.20 takes font bytes as the default font as well as a name. */
    font?: string | Uint8Array | ArrayBuffer;
  }
}
