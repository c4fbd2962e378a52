// The document's typeface, embedded (as a subset) in every document: Inter, an open font (SIL OFL
// 1.1) with tabular figures, so that amounts line up in their column.
import bold from "@expo-google-fonts/inter/600SemiBold/Inter_600SemiBold.ttf";
import regular from "@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf";

export const FONTS = { regular, bold } as const;

/** Figures of equal width, for columns of amounts. */
export const TABULAR: PDFKit.Mixins.TextOptions = { features: ["tnum"] };
