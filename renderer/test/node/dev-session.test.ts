// One `wrangler dev` session runs the renderer beside the Worker that binds it (several -c configs,
// the first one served): the README's local recipe, run as written.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort } from "../../../test/support/node/local-service.ts";
import { QUIET_CYCLE } from "../sample-statements.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const WRANGLER = path.join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");

let child: ChildProcess;
let base: string;
let output = "";

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const args = ["dev", "-c", "renderer/test/wrangler.toml", "-c", "renderer/wrangler.toml"];
  args.push("--port", String(port), "--ip", "127.0.0.1", "--show-interactive-dev-session=false");
  const env = {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
  };
  child = spawn(process.execPath, [WRANGLER, ...args], { cwd: ROOT, env, detached: true });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk));
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(500)) {
    if (child.exitCode !== null) break;
    if (
      await fetch(base).then(
        () => true,
        () => false,
      )
    )
      return;
  }
  throw new Error(`wrangler dev did not start:\n${output}`);
});

afterAll(async () => {
  if (child.pid && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid, "SIGINT");
    await exited;
  }
});

it("renders a statement posted to the caller, over the Service Binding to the renderer", async () => {
  const res = await fetch(base, { method: "POST", body: JSON.stringify(QUIET_CYCLE) });
  expect(res.status, output).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/pdf");
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(bytes.subarray(0, 8).toString("latin1")).toBe("%PDF-1.7");
  expect(bytes.length).toBeGreaterThan(10_000);
});
