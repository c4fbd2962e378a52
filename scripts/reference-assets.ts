// Copies the interactive reference (Scalar's standalone bundle, ~4 MB) from node_modules into
// the static assets (public/docs/vendor/, git-ignored), which Workers serve from this origin: too
// big for the Worker bundle, and no page may load it from a CDN. npm runs this before start, dev,
// deploy and test; vitest's global setup runs it too. Copies only when the file differs.
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const SOURCE = path.join(
  ROOT,
  "node_modules",
  "@scalar",
  "api-reference",
  "dist",
  "browser",
  "standalone.js",
);
const TARGET = path.join(ROOT, "public", "docs", "vendor", "scalar-api-reference.js");

/** Copies the bundle when it is missing or stale; returns whether it copied. */
export function copyReferenceAssets(): boolean {
  if (!existsSync(SOURCE)) {
    throw new Error(`${SOURCE} is missing: run npm ci (it comes with @scalar/api-reference)`);
  }
  if (
    existsSync(TARGET) &&
    statSync(TARGET).size === statSync(SOURCE).size &&
    readFileSync(TARGET).equals(readFileSync(SOURCE))
  ) {
    return false;
  }
  mkdirSync(path.dirname(TARGET), { recursive: true });
  copyFileSync(SOURCE, TARGET);
  return true;
}

if (import.meta.filename === process.argv[1]) {
  const copied = copyReferenceAssets();
  console.log(`${copied ? "copied" : "up to date"}: ${path.relative(ROOT, TARGET)}`);
}
