// The document's typeface, embedded (as a subset) in every document: Inter, an open font (SIL OFL
// 1.1) with tabular figures, so that amounts line up in their column.

import regular from "@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf";
import bold from "@expo-google-fonts/inter/600SemiBold/Inter_600SemiBold.ttf";
import { create, type Font, type GlyphRun } from "fontkit";

export interface Fonts {
  regular: Font;
  bold: Font;
}

let parsed: Fonts | undefined;

/**
 * The fonts, parsed once per isolate and shared by every document it renders: parsing them anew
 * was about 60% of a render's CPU. Each document still embeds its own subset.
 */
export function fonts(): Fonts {
  parsed ??= {
    regular: withSharedShaping(create(new Uint8Array(regular))),
    bold: withSharedShaping(create(new Uint8Array(bold))),
  };
  return parsed;
}

/** How many shaped runs of text a font keeps for the documents that follow. */
export const SHAPED_RUNS_KEPT = 8192;

/**
 * The font, its text shaping (OpenType substitution and positioning, most of a long document's
 * CPU) remembered across documents: a date, a merchant's name, a column header is shaped once per
 * isolate, not once per row. pdfkit remembers words within one document, and nothing it lays out
 * with features (the tabular figures of dates and amounts). Each caller gets its own copy of the
 * positions, which pdfkit scales in place; the glyphs are the font's own, shared already. The
 * oldest run is forgotten first once SHAPED_RUNS_KEPT are kept.
 */
function withSharedShaping(font: Font): Font {
  const shape = font.layout.bind(font);
  const kept = new Map<string, GlyphRun>();
  font.layout = (text, features) => {
    const key = features === undefined ? text : `${text}\u0000${JSON.stringify(features)}`;
    let run = kept.get(key);
    if (!run) {
      run = shape(text, features) as GlyphRun;
      if (kept.size >= SHAPED_RUNS_KEPT) kept.delete(kept.keys().next().value as string);
      kept.set(key, run);
    }
    const copy = Object.create(Object.getPrototypeOf(run)) as GlyphRun;
    return Object.assign(copy, run, { positions: run.positions.map((p) => ({ ...p })) });
  };
  return font;
}

/** Figures of equal width, for columns of amounts. */
export const TABULAR: PDFKit.Mixins.TextOptions = { features: ["tnum"] };
