// The product's accent colour, made legible: text and rules drawn in it on white (and white text on
// it) need a contrast of at least 4.5:1 (WCAG 2.2, 1.4.3), so a light colour is darkened toward
// black, in its own hue, until it has that contrast.
import { ACCENT_COLOUR } from "./statement-document";

const MIN_CONTRAST = 4.5;

type Rgb = [number, number, number];

function parseHex(colour: string): Rgb {
  if (!ACCENT_COLOUR.test(colour)) {
    throw new RangeError(`accent_colour must be #RRGGBB; got ${JSON.stringify(colour)}`);
  }
  return [1, 3, 5].map((at) => Number.parseInt(colour.slice(at, at + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) =>
  `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;

/** Relative luminance (WCAG 2.2). */
function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Contrast ratio of a colour against white. */
export function contrastOnWhite(colour: string): number {
  return 1.05 / (luminance(parseHex(colour)) + 0.05);
}

export interface Accent {
  /** For text, rules and fills that carry white text: at least 4.5:1 against white. */
  strong: string;
  /** A pale tint for panel backgrounds, under dark text. */
  tint: string;
}

export function accentOf(colour: string): Accent {
  const rgb = parseHex(colour);
  let strong = rgb;
  for (let scale = 1; contrastOnWhite(toHex(strong)) < MIN_CONTRAST; scale -= 0.02) {
    strong = rgb.map((c) => c * scale) as Rgb;
  }
  const tint = rgb.map((c) => 255 - (255 - c) * 0.08) as Rgb;
  return { strong: toHex(strong), tint: toHex(tint) };
}
