// What the local webhook tools (webhooks:listen, webhooks:trigger) call the API with: a sandbox key
// and the base URL from API_KEY and BASE, or from .wrangler/demo.env (the demo sandbox key
// `npm start` writes there), MERCHANT_KEY naming the product when the partner has several; the
// typed client pinned to the newest released version.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { createClient, VERSIONS } from "@card-statements/client";

export const ROOT = path.resolve(import.meta.dirname, "..");
const DEMO_ENV = path.join(ROOT, ".wrangler", "demo.env");

/** The version the tools speak: the newest released one. */
export const VERSION = VERSIONS.find((v) => v !== "latest") ?? VERSIONS[0];

/** Prints why, and exits with status 1. */
export function fail(message: string): never {
  console.error(`✖ ${message}`);
  process.exit(1);
}

/** `export NAME=value` lines of .wrangler/demo.env. */
function demoEnv(): Record<string, string> {
  if (!existsSync(DEMO_ENV)) return {};
  const pairs = readFileSync(DEMO_ENV, "utf8").matchAll(/^export ([A-Z_]+)=(\S*)$/gm);
  return Object.fromEntries([...pairs].map((m) => [m[1] ?? "", m[2] ?? ""]));
}

/** The key and base URL to call, and a client of them; exits when there are none. */
export function localApi() {
  const demo = demoEnv();
  const apiKey = process.env.API_KEY ?? demo.DEMO_KEY;
  const baseUrl = process.env.BASE ?? demo.BASE;
  if (!apiKey || !baseUrl) fail("no API key: run `npm start` first, or set API_KEY and BASE");
  const merchantKey = process.env.MERCHANT_KEY;
  const client = createClient({
    apiKey,
    baseUrl,
    version: VERSION,
    retry: { maxRetries: 0 },
    ...(merchantKey ? { merchantKey } : {}),
  });
  return { apiKey, baseUrl, client };
}
