// The document's typeface, embedded (as a subset) in every document: Inter, an open font (SIL OFL
// 1.1) with tabular figures, so that amounts line up in their column.

import regular from "@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf";
import bold from "@expo-google-fonts/inter/600SemiBold/Inter_600SemiBold.ttf";
import { create, type Font } from "fontkit";

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
  parsed ??= { regular: create(new Uint8Array(regular)), bold: create(new Uint8Array(bold)) };
  return parsed;
}

/** Figures of equal width, for columns of amounts. */
export const TABULAR: PDFKit.Mixins.TextOptions = { features: ["tnum"] };
