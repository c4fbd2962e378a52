// `npm run webhooks:listen`: a webhook receiver on this machine for the local run. It listens on
// 127.0.0.1, registers itself as a webhook endpoint with the typed client, verifies each delivery
// with the endpoint's secret (the client's `verifyWebhook`) and prints it, and deletes the endpoint
// on Ctrl-C. The API key and base URL come from API_KEY and BASE, or from .wrangler/demo.env (the
// demo sandbox key `npm start` writes there). `--port N` picks the port (default: any free one);
// `--events a,b` registers the endpoint for those event types only (default: every type).
//
// `--forward-to URL` also hands each verified delivery, its headers and body unchanged, to your
// own receiver at URL (as `stripe listen --forward-to` does), and answers the service with its
// status, so a receiver that fails is retried as in production. The endpoint's secret, which
// your receiver verifies with, is printed and written to .wrangler/webhooks-listen.env
// (`export WEBHOOK_SECRET=…`) while it runs.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  CardStatementsError,
  verifyWebhook,
  WebhookVerificationError,
} from "@card-statements/client";
import { fail, localApi, ROOT } from "./local-api.ts";

const SECRET_ENV = path.join(ROOT, ".wrangler", "webhooks-listen.env");

/** Headers that belong to one connection, not to the delivery: never forwarded. */
const HOP_BY_HOP = new Set([
  "host",
  "connection",
  "keep-alive",
  "content-length",
  "transfer-encoding",
  "upgrade",
  "expect",
]);

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** The delivery's own headers, as received. */
function deliveryHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    events: { type: "string" },
    "forward-to": { type: "string" },
  },
});
const forwardTo = values["forward-to"];
if (forwardTo !== undefined) {
  const target = URL.canParse(forwardTo) ? new URL(forwardTo) : null;
  if (!target || !["http:", "https:"].includes(target.protocol)) {
    fail(`--forward-to must be an http(s) URL, such as http://127.0.0.1:4242/webhooks`);
  }
}
const { baseUrl, client } = localApi();
let secret = "";

/** Hands the delivery to the partner's receiver; answers its status (502 when unreachable). */
async function forward(headers: Record<string, string>, body: Buffer): Promise<number> {
  try {
    const res = await fetch(forwardTo as string, { method: "POST", headers, body });
    await res.arrayBuffer();
    return res.status;
  } catch (err) {
    console.log(`  ✖ could not forward to ${forwardTo}: ${String(err)}`);
    return 502;
  }
}

const server = createServer(async (req, res) => {
  const body = await readBody(req);
  try {
    const event = await verifyWebhook({ secret, headers: req.headers, body });
    const statement = event.data.statement.statement_id;
    const line = `✔ ${event.type} ${event.event_id} for ${statement}: signature verified`;
    if (forwardTo === undefined) {
      console.log(line);
      res.writeHead(204).end();
      return;
    }
    const status = await forward(deliveryHeaders(req), body);
    console.log(`${line}, forwarded: ${status}`);
    res.writeHead(status).end();
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
  const types = values.events?.split(",").map((type) => type.trim());
  const endpoint = await client.webhookEndpoints.create({
    url,
    description: "webhooks:listen",
    ...(types ? { enabled_events: types } : {}),
  });
  endpointId = endpoint.webhook_endpoint_id;
  secret = endpoint.secret ?? "";
  // Written before anything is printed: a receiver started on the first line finds it.
  if (forwardTo !== undefined) {
    mkdirSync(path.dirname(SECRET_ENV), { recursive: true });
    writeFileSync(SECRET_ENV, `export WEBHOOK_SECRET=${secret}\n`, { mode: 0o600 });
  }
  console.log(
    `Listening on ${url}, webhook endpoint ${endpointId} (API version ${endpoint.api_version}).`,
  );
  if (forwardTo === undefined) {
    console.log("Each delivery is verified and printed here; Ctrl-C deletes the endpoint.");
  } else {
    console.log(`Forwarding each verified delivery to ${forwardTo}; Ctrl-C deletes the endpoint.`);
    console.log(
      `Your webhook signing secret is ${secret} ` +
        `(source ${path.relative(ROOT, SECRET_ENV)} sets WEBHOOK_SECRET).`,
    );
  }
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
  rmSync(SECRET_ENV, { force: true });
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
