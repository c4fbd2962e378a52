// Generates the Python client's modules, one per API version, from the service's own OpenAPI
// documents, read from a throwaway local run (`/changelog` names the versions), as the TypeScript
// client's types are. With `--check`, writes nothing and fails when the committed modules differ
// from what the service documents now.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startLocalService } from "../../../test/support/node/local-service.ts";
import type { Document } from "./openapi.ts";
import { MARK, pythonModules, type Reference } from "./python-modules.ts";

const OUT = path.resolve(import.meta.dirname, "..", "card_statements");
const check = process.argv.includes("--check");

interface Changelog {
  versions: { version: string; reference: string }[];
}

async function references(base: string): Promise<Reference[]> {
  const changelog = (await (await fetch(`${base}/changelog`)).json()) as Changelog;
  const found: Reference[] = [];
  for (const { version, reference } of changelog.versions) {
    const doc = (await (await fetch(`${base}${reference}`)).json()) as Document;
    found.push({ version, reference, doc });
  }
  return found;
}

const service = await startLocalService();
let files: Map<string, string>;
try {
  files = pythonModules(await references(service.base));
} finally {
  await service.stop();
}

const generated = readdirSync(OUT).filter(
  (name) => name.endsWith(".py") && readFileSync(path.join(OUT, name), "utf8").startsWith(MARK),
);
const stale = [
  ...[...files]
    .filter(([name, text]) => {
      try {
        return readFileSync(path.join(OUT, name), "utf8") !== text;
      } catch {
        return true;
      }
    })
    .map(([name]) => name),
  ...generated.filter((name) => !files.has(name)),
];
if (check) {
  if (stale.length > 0) {
    console.error(
      `The Python client's generated modules are stale (${stale.join(", ")}): the API reference ` +
        "changed.\nRun `npm run client:python:generate` and commit the result.",
    );
    process.exit(1);
  }
  console.log("Python client modules match the API reference.");
} else {
  for (const name of generated.filter((n) => !files.has(n))) rmSync(path.join(OUT, name));
  for (const [name, text] of files) writeFileSync(path.join(OUT, name), text);
  console.log(`Wrote ${[...files.keys()].join(", ")} in ${OUT}`);
}
