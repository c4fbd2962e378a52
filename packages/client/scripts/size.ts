// The client's bundle size as an application ships it: src/index.ts and openapi-fetch bundled,
// minified ESM; printed raw and gzipped. (The generated types weigh nothing at run time.)
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const entry = path.resolve(import.meta.dirname, "..", "src", "index.ts");
const result = await build({
  entryPoints: [entry],
  bundle: true,
  minify: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  write: false,
});
const bytes = result.outputFiles[0]?.contents ?? new Uint8Array();
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
console.log(
  `client bundle: ${kib(bytes.byteLength)} minified, ${kib(gzipSync(bytes).byteLength)} gzipped`,
);
