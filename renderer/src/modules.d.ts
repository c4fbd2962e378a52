// Modules without type declarations of their own.

/** Font files are bundled as Data modules (renderer/wrangler.toml [[rules]]): their bytes. */
declare module "*.ttf" {
  const bytes: ArrayBuffer;
  export default bytes;
}

/** fontkit (pdfkit's font engine), as far as the renderer uses it. */
declare module "fontkit" {
  /** A parsed font: pdfkit takes one wherever it takes font bytes. */
  export interface Font {
    postscriptName: string;
    layout(text: string, features?: unknown): unknown;
  }
  /** What `layout` returns: the glyphs, and where each goes (pdfkit scales these in place). */
  export interface GlyphRun {
    glyphs: unknown[];
    positions: Record<string, number>[];
  }
  export function create(bytes: Uint8Array): Font;
}
