// pdfkit 0.20 copies the document's Title, Author, Subject and Keywords into its XMP metadata
// as they are, so an `&` or a `<` in a product's name breaks the metadata's XML (and with it the
// PDF/UA claim) and lets a product's name write XMP of its own. The document information
// dictionary takes the text as it is; only the XMP copy is escaped, while pdfkit writes it.

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Text as XML character data: the five characters XML reserves, escaped. */
export function xmlText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** The part of a pdfkit document this module touches: its info and its XMP writer. */
interface MetadataWriter {
  info: Record<string, unknown>;
  _addInfo(): void;
}

/** Makes `doc` write its information into the XMP metadata escaped. */
export function escapeXmpInfo(doc: PDFKit.PDFDocument): void {
  // pdfkit's own documents carry `info` and `_addInfo` (its metadata mixin); neither is declared
  // by @types/pdfkit, so the document is read as the writer it is.
  const writer = doc as unknown as MetadataWriter;
  const addInfo = writer._addInfo;
  writer._addInfo = function addEscapedInfo(this: MetadataWriter) {
    const info = this.info;
    const escaped: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(info)) {
      escaped[key] = typeof value === "string" ? xmlText(value) : value;
    }
    this.info = escaped;
    try {
      addInfo.call(this);
    } finally {
      this.info = info;
    }
  };
}
