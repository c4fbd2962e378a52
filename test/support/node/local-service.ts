// A throwaway local run of the Worker for tests that need real HTTP (browsers, webhooks, soak):
// `wrangler dev` on a free port with its own local D1 and R2 state in a temporary folder, the
// migrations applied to it first. Nothing is shared with `npm start`'s state in .wrangler/. The
// five-minute cron runs as it runs deployed (scripts/local-cron.ts).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startLocalCron } from "../../../scripts/local-cron.ts";
import { migrateAll } from "../../../scripts/migrate.ts";
import { shellEnv } from "./npm-start.ts";
import { STARTUP_MS } from "./timeouts.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");

export interface LocalService {
  /** `http://localhost:<port>`, no trailing slash. */
  base: string;
  port: number;
  /** The operator token of .dev.vars.example, which every local run uses. */
  operatorToken: string;
  /** What wrangler printed so far (for failure messages). */
  output(): string;
  /** The process id of wrangler, whose descendants include the workerd runtime. */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** A request to the run's operator API (`/operator/v1…`) with its token, its body JSON. */
export function operatorFetch(
  service: LocalService,
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  return fetch(`${service.base}/operator/v1${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${service.operatorToken}`,
      "content-type": "application/json",
      ...init.headers,
    },
  });
}

/** The newest sign-in link mailed to `to` (mail leaves just after the answer: wait for it). */
export async function mailedLink(service: LocalService, to: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const res = await operatorFetch(service, `/outbox?to=${encodeURIComponent(to)}`);
    const mail = ((await res.json()) as { data: { text: string }[] }).data;
    const link = mail.at(-1)?.text.match(/\S+\/dashboard\/sign-in\/confirm\?token=\S+/)?.[0];
    if (link) return link;
    await sleep(100);
  }
  throw new Error(`no sign-in link mailed to ${to}`);
}

export interface LocalServiceOptions {
  /** The service's folder (wrangler.toml, src/, migrations/): this repository by default. */
  root?: string;
  /** Extra `[vars]`, passed as `--var NAME:value`. */
  vars?: Record<string, string>;
  /** The port of wrangler's DevTools inspector for the Worker (default: wrangler's choice). */
  inspectorPort?: number;
  /**
   * The folder of the run's local D1 and R2 state, kept when the run stops, so that a second run
   * can start over it (default: a temporary folder, removed when the run stops).
   */
  state?: string;
  /** False leaves the five-minute cron unfired, as plain `wrangler dev` leaves it (default true). */
  cron?: boolean;
  /** Called with each line wrangler prints, as it comes (`output()` keeps only the last ones). */
  onLine?: (line: string) => void;
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** KEY=value pairs of the committed .dev.vars.example: the secrets every local run starts with. */
function exampleVars(): Record<string, string> {
  const vars: Record<string, string> = {};
  const text = readFileSync(path.join(ROOT, ".dev.vars.example"), "utf8");
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (match?.[1]) vars[match[1]] = (match[2] ?? "").replace(/^(["'])(.*)\1$/, "$2");
  }
  return vars;
}

/** The environment wrangler runs with: no metrics, no network, and none of vitest's variables. */
function wranglerEnv(): NodeJS.ProcessEnv {
  return shellEnv({ WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" });
}

/** Starts the Worker on a free port with fresh local state; resolves once it answers HTTP. */
export async function startLocalService(options: LocalServiceOptions = {}): Promise<LocalService> {
  const root = options.root ?? ROOT;
  const state = options.state ?? mkdtempSync(path.join(os.tmpdir(), "local-service-"));
  const removeState = () => {
    if (!options.state) rmSync(state, { recursive: true, force: true });
  };
  const env = wranglerEnv();
  const problem = migrateAll(["--local", "--persist-to", state], {
    apply: true,
    check: false,
    root,
    env,
  });
  if (problem) {
    removeState();
    throw new Error(`migrations failed: ${problem}`);
  }

  const secrets = exampleVars();
  const port = await freePort();
  // The API Worker (the first config is the one served) and the renderer Worker it binds.
  // The checkout's own wrangler: one run from another tree would bundle its own templates from
  // there, and watch that tree's package.json.
  const wrangler = path.join(root, "node_modules", "wrangler", "bin", "wrangler.js");
  const args = [wrangler, "dev", "-c", "wrangler.toml", "-c", "renderer/wrangler.toml"];
  args.push("--port", String(port), "--ip", "127.0.0.1");
  args.push("--persist-to", state, "--show-interactive-dev-session=false");
  // .dev.vars may hold a developer's own values; a test run uses the committed example's.
  args.push("--env-file", path.join(ROOT, ".dev.vars.example"));
  if (options.inspectorPort) args.push("--inspector-port", String(options.inspectorPort));
  for (const [name, value] of Object.entries(options.vars ?? {})) {
    args.push("--var", `${name}:${value}`);
  }
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collector = () => {
    let partial = "";
    return (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      if (!options.onLine) return;
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) options.onLine(line);
    };
  };
  child.stdout?.on("data", collector());
  child.stderr?.on("data", collector());
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  let cron: { stop(): void } | undefined;
  const stop = async () => {
    cron?.stop();
    if (child.pid && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, "SIGINT");
      } catch {
        // Already gone.
      }
      const killer = setTimeout(() => {
        try {
          if (child.pid) process.kill(-child.pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }, 10_000);
      await exited;
      clearTimeout(killer);
    }
    removeState();
  };

  const deadline = Date.now() + STARTUP_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      await fetch(`http://127.0.0.1:${port}/changelog`, { signal: AbortSignal.timeout(5_000) });
      if (options.cron !== false) cron = startLocalCron(`http://127.0.0.1:${port}`);
      return {
        base: `http://localhost:${port}`,
        port,
        operatorToken: secrets.OPERATOR_TOKEN ?? "",
        output: () => output,
        pid: child.pid,
        stop,
      };
    } catch {
      await sleep(250);
    }
  }
  await stop();
  throw new Error(`wrangler dev did not start:\n${output.slice(-4000)}`);
}
