// The sample logo, as PNG and as JPEG bytes (the same picture), for the renderer's tests.

import type { ProductLogo } from "../src/statement-document";
import jpeg from "./fixtures/logo.jpg?inline";
import png from "./fixtures/logo.png?inline";

const bytesOf = (dataUrl: string) =>
  Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(",") + 1)), (c) => c.charCodeAt(0));

export const PNG_LOGO: ProductLogo = {
  bytes: bytesOf(png),
  media_type: "image/png",
  alt_text: "Acme",
};

export const JPEG_LOGO: ProductLogo = {
  ...PNG_LOGO,
  bytes: bytesOf(jpeg),
  media_type: "image/jpeg",
};
