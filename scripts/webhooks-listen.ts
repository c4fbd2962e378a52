// `npm run webhooks:listen`: a webhook receiver on this machine for the local run. It listens on
// 127.0.0.1, registers itself as a webhook endpoint with the typed client, verifies each delivery
// with the endpoint's secret (the client's `verifyWebhook`) and prints it, and deletes the endpoint
// on Ctrl-C. The API key and base URL come from API_KEY and BASE, or from .wrangler/demo.env (the
// demo sandbox key `npm start` writes there). `--port N` picks the port (default: any free one).
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  CardStatementsError,
  createClient,
  VERSIONS,
  verifyWebhook,
  WebhookVerificationError,
} from "@card-statements/client";

const ROOT = path.resolve(import.meta.dirname, "..");
const DEMO_ENV = path.join(ROOT, ".wrangler", "demo.env");
const VERSION = VERSIONS.find((v) => v !== "latest") ?? VERSIONS[0];

function fail(message: string): never {
  console.error(`✖ ${message}`);
  process.exit(1);
}

/** `export NAME=value` lines of .wrangler/demo.env. */
function demoEnv(): Record<string, string> {
  if (!existsSync(DEMO_ENV)) return {};
  const pairs = readFileSync(DEMO_ENV, "utf8").matchAll(/^export ([A-Z_]+)=(\S*)$/gm);
  return Object.fromEntries([...pairs].map((m) => [m[1] ?? "", m[2] ?? ""]));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

const { values } = parseArgs({ options: { port: { type: "string", default: "0" } } });
const demo = demoEnv();
const apiKey = process.env.API_KEY ?? demo.DEMO_KEY;
const baseUrl = process.env.BASE ?? demo.BASE;
if (!apiKey || !baseUrl) fail("no API key: run `npm start` first, or set API_KEY and BASE");

const client = createClient({ apiKey, baseUrl, version: VERSION, retry: { maxRetries: 0 } });
let secret = "";

const server = createServer(async (req, res) => {
  const body = await readBody(req);
  try {
    const event = await verifyWebhook({ secret, headers: req.headers, body });
    const statement = event.data.statement.statement_id;
    console.log(`✔ ${event.type} ${event.event_id} for ${statement}: signature verified`);
    res.writeHead(204).end();
  } catch (err) {
    const reason = err instanceof WebhookVerificationError ? err.message : String(err);
    console.log(`✖ refused a delivery to ${req.url}: ${reason}`);
    res.writeHead(400).end();
  }
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0-65535`);
await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
const address = server.address();
const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : port}/webhooks`;

let endpointId: string;
try {
  const endpoint = await client.webhookEndpoints.create({ url, description: "webhooks:listen" });
  endpointId = endpoint.webhook_endpoint_id;
  secret = endpoint.secret ?? "";
  console.log(
    `Listening on ${url}, webhook endpoint ${endpointId} (API version ${endpoint.api_version}).`,
  );
  console.log("Each delivery is verified and printed here; Ctrl-C deletes the endpoint.");
} catch (err) {
  server.close();
  const why = err instanceof CardStatementsError ? `${err.status} ${err.message}` : String(err);
  fail(`registering ${url} at ${baseUrl} failed: ${why}`);
}

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  server.close();
  try {
    await client.webhookEndpoints.delete(endpointId);
    console.log(`Deleted webhook endpoint ${endpointId}.`);
  } catch (err) {
    console.error(`✖ deleting webhook endpoint ${endpointId} failed: ${String(err)}`);
    process.exitCode = 1;
  }
  server.closeAllConnections();
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, stop);
