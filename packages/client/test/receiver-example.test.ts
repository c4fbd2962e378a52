// The README's receiver example, run as written: it is the file examples/receiver.ts, which
// answers a delivery signed with the secret 204 and handles its event once, however often it
// comes, and refuses a tampered or foreign one with 400. Signed by the Standard Webhooks
// reference implementation, as the service signs.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../test/support/node/local-service.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const EXAMPLE = path.join(ROOT, "packages/client/examples/receiver.ts");
const SECRET = `whsec_${Buffer.from("a receiver example's 32-byte key").toString("base64")}`;

let child: ChildProcess;
let output = "";
let url = "";

/** Waits until the example printed `line` (a whole line), or fails after a while. */
async function printed(line: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!output.split("\n").includes(line)) {
    if (Date.now() > deadline) throw new Error(`never printed ${line}; printed:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function deliver(id: string, body: string, secret = SECRET, change = (b: string) => b) {
  const now = new Date();
  return fetch(url, {
    method: "POST",
    headers: {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign(id, now, body),
      "content-type": "application/json",
    },
    body: change(body),
  });
}

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}/webhooks`;
  child = spawn(process.execPath, [EXAMPLE], {
    cwd: ROOT,
    env: { ...process.env, WEBHOOK_SECRET: SECRET, PORT: String(port) },
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  await printed(`Receiving on ${url}`, 60_000);
}, 90_000);

afterAll(() => {
  child?.kill();
});

describe("the README's receiver example", () => {
  it("is examples/receiver.ts, as written", () => {
    const readme = readFileSync(path.join(ROOT, "packages/client/README.md"), "utf8");
    const block = /<!-- receiver -->\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBe(readFileSync(EXAMPLE, "utf8"));
  });

  it("handles a signed delivery once, however often it comes, and refuses any other", async () => {
    const event = {
      event_id: "evt_example1",
      type: "statement.created",
      created_at: "2026-11-27T10:00:00.000Z",
      data: {
        statement: {
          statement_id: "st_1",
          customer_id: "cus_1",
          account_id: "acc_1",
          as_of: "2026-11-27T10:00:01.000Z",
        },
      },
    };
    const body = JSON.stringify(event);
    expect((await deliver(event.event_id, body)).status).toBe(204);
    await printed("statement.created evt_example1 for st_1");
    // A retry of the same event: answered, not handled twice.
    expect((await deliver(event.event_id, body)).status).toBe(204);
    const tampered = await deliver(event.event_id, body, SECRET, (b) => b.replace("st_1", "st_2"));
    expect(tampered.status).toBe(400);
    const other = `whsec_${Buffer.from("another endpoint's 32-byte key!!").toString("base64")}`;
    expect((await deliver("evt_example2", body, other)).status).toBe(400);
    await printed("refused: no signature matches the secret");
    expect(output.split("\n").filter((l) => l.startsWith("statement.created"))).toHaveLength(1);
  });
});
