// `npm start`: the local run. Creates .dev.vars when missing, migrates the local D1 database,
// serves the Worker with `wrangler dev`, loads the demo data through the operator API, and prints
// a curl that works, and fires the five-minute cron, which `wrangler dev` leaves unfired
// (scripts/local-cron.ts). Requests reach wrangler through a small proxy on PORT, which restarts
// wrangler between requests when the local runtime's memory passes LOCAL_RUNTIME_MAX_MB
// (scripts/runtime-restart.ts). Ctrl-C stops wrangler too.
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "../test/support/node/local-service.ts";
import {
  DEMO_KEYS,
  DEMO_PARTNER,
  DEMO_PARTNERS,
  DEMO_PRESENTATION,
  DEMO_USERS,
  type DemoAccountRef,
  demoImports,
} from "./demo-data.ts";
import { startLocalCron } from "./local-cron.ts";
import { migrateAll } from "./migrate.ts";
import { runtimeLogFilter } from "./runtime-log.ts";
import {
  type Runtime,
  readMemoryBound,
  serveWithRestarts,
  workerdMemory,
} from "./runtime-restart.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const WRANGLER = path.join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
/** Demo keys survive restarts here (git-ignored, next to the local database they belong to). */
const KEYS_FILE = path.join(ROOT, ".wrangler", "demo-keys.json");
const ENV_FILE = path.join(ROOT, ".wrangler", "demo.env");

const WRANGLER_ENV = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  // Miniflare would otherwise download the `Request.cf` sample and warn when offline.
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

/** The running `wrangler dev`, stopped with us whatever the reason. */
let wrangler: ChildProcess | undefined;

function fail(message: string): never {
  console.error(`\n✖ ${message}`);
  wrangler?.kill("SIGINT");
  process.exit(1);
}

function readPort(): number {
  const text = process.env.PORT ?? "8787";
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535) fail(`PORT must be 1-65535, got "${text}"`);
  return port;
}

/** KEY=value lines of a .dev.vars-style file. */
function readVars(file: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of readFileSync(file, "utf8").split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (match?.[1]) vars[match[1]] = (match[2] ?? "").replace(/^(["'])(.*)\1$/, "$2");
  }
  return vars;
}

/**
 * A fresh clone has no .dev.vars: start from the committed example (local-only secrets). An older
 * .dev.vars gains the variables the example added since, so a new setting reaches every checkout.
 */
function ensureDevVars(): Record<string, string> {
  const file = path.join(ROOT, ".dev.vars");
  const example = path.join(ROOT, ".dev.vars.example");
  if (!existsSync(file)) {
    copyFileSync(example, file);
    console.log("Created .dev.vars from .dev.vars.example");
  }
  const present = readVars(file);
  const missing = Object.entries(readVars(example)).filter(([name]) => !(name in present));
  if (missing.length > 0) {
    const text = readFileSync(file, "utf8");
    const lines = missing.map(([name, value]) => `${name}=${value}`);
    writeFileSync(
      file,
      `${text}${text.endsWith("\n") || text === "" ? "" : "\n"}${lines.join("\n")}\n`,
    );
    console.log(`Added ${missing.map(([name]) => name).join(", ")} to .dev.vars from the example`);
  }
  return readVars(file);
}

/** The brand word in header names: .dev.vars overrides wrangler.toml's [vars]. */
function readBrand(devVars: Record<string, string>): string {
  const toml = readFileSync(path.join(ROOT, "wrangler.toml"), "utf8");
  return devVars.BRAND ?? /^BRAND\s*=\s*"([^"]*)"/m.exec(toml)?.[1] ?? "service";
}

function assertPortFree(port: number): Promise<void> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => fail(`port ${port} is in use: stop what uses it or set PORT=<port>`));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve()));
  });
}

/** Every local database (the shards and the directory) gets its migrations. */
function migrate(): void {
  const problem = migrateAll(["--local"], { apply: true, check: false });
  if (problem) fail(problem);
}

/** While the demo loads, its own requests are not worth a screenful of log lines. */
let loadingDemo = true;
const REQUEST_LOG = /^(\{"request_id"|\[wrangler:info\] [A-Z]+ \/|\[outbox\] )/;

function startWrangler(port: number): ChildProcess {
  // The API Worker (the first config is the one served) and the renderer Worker it binds.
  const args = [WRANGLER, "dev", "-c", "wrangler.toml", "-c", "renderer/wrangler.toml"];
  args.push("--port", String(port), "--ip", "127.0.0.1");
  args.push("--show-interactive-dev-session=false");
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: WRANGLER_ENV,
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    const shown = runtimeLogFilter();
    createInterface({ input: from, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
      if (shown(line) && !(loadingDemo && REQUEST_LOG.test(line))) to.write(`${line}\n`);
    });
  }
  return child;
}

/**
 * Waits until the Worker answers an HTTP request (one that needs no credential, so that the wait
 * counts no failed authentication); gives up if wrangler exits first.
 */
async function waitUntilServing(base: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) fail("wrangler dev exited before serving");
    try {
      await fetch(`${base}/changelog`, { signal: AbortSignal.timeout(10_000) });
      return;
    } catch {
      await sleep(250);
    }
  }
  fail("wrangler dev did not answer within 2 minutes");
}

interface SavedKey {
  key_id: string;
  api_key: string;
}

/** How long the demo load waits out rate limits, in all, before giving up. */
const RATE_LIMIT_PATIENCE_MS = 5 * 60_000;
let waitedForLimits = 0;

/**
 * Calls the API and returns status and JSON body (or null when the body is not JSON). A `429` is
 * waited out as its `Retry-After` says, then the call is made again: other clients of this local
 * run (a script hammering it, say) share its rate limits, and must not make the demo load fail.
 */
async function call(url: string, init: RequestInit = {}) {
  for (;;) {
    const res = await fetch(url, init);
    const text = await res.text();
    const wait = Math.max(1, Number(res.headers.get("retry-after")) || 1) * 1000;
    if (res.status === 429 && waitedForLimits + wait <= RATE_LIMIT_PATIENCE_MS) {
      console.log(`  Rate limited loading the demo; waiting ${wait / 1000} s as Retry-After says.`);
      waitedForLimits += wait;
      await sleep(wait);
      continue;
    }
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: res.status, body, text };
  }
}

const statementsUrl = (base: string, a: DemoAccountRef) =>
  `${base}/v2/customers/${a.customer_id}/accounts/${a.account_id}/statements`;

/** The partner API as one demo key sees it. */
function partnerApi(base: string, brand: string, apiKey: string) {
  const statementsOf = (account: DemoAccountRef, query: string) =>
    call(`${statementsUrl(base, account)}${query}`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`,
        ...(account.merchant_key ? { [`x-${brand}-merchant-key`]: account.merchant_key } : {}),
      },
    });
  return { statementsOf };
}

/** Imports the demo, one request per partner: a no-op when it is already loaded. */
async function importDemo(base: string, operator: Record<string, string>): Promise<number> {
  let statements = 0;
  for (const payload of demoImports()) {
    const imported = await call(`${base}/operator/v1/import`, {
      method: "POST",
      headers: { ...operator, "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
    if (imported.status === 409) {
      fail(
        `the local database holds demo statements with other figures:\n  ${imported.text}\n` +
          "  Remove .wrangler/state to start again from an empty local database.",
      );
    }
    if (imported.status !== 200) fail(`demo import failed: ${imported.status} ${imported.text}`);
    statements += payload.statements.length;
  }
  return statements;
}

/** The demo keys: those saved in .wrangler/ while they still authenticate, new ones otherwise. */
async function ensureKeys(base: string, brand: string, operator: Record<string, string>) {
  const saved: Record<string, SavedKey> = existsSync(KEYS_FILE)
    ? JSON.parse(readFileSync(KEYS_FILE, "utf8"))
    : {};
  const keys: Record<string, SavedKey> = {};
  for (const spec of DEMO_KEYS) {
    const previous = saved[spec.name];
    if (previous) {
      const probe = await partnerApi(base, brand, previous.api_key).statementsOf(
        spec.accounts[0],
        "?limit=1",
      );
      if (probe.status === 200) {
        keys[spec.name] = previous;
        continue;
      }
    }
    const created = await call(`${base}/operator/v1/partners/${spec.partner_id}/keys`, {
      method: "POST",
      headers: { ...operator, "content-type": "application/json" },
      body: JSON.stringify({ environment: spec.environment, scopes: spec.scopes }),
    });
    if (created.status !== 201) fail(`creating a demo key failed: ${created.text}`);
    const { key_id, api_key } = created.body as SavedKey;
    keys[spec.name] = { key_id, api_key };
  }
  mkdirSync(path.dirname(KEYS_FILE), { recursive: true });
  writeFileSync(KEYS_FILE, `${JSON.stringify(keys, null, 2)}\n`);
  return keys;
}

/** How long `npm start` waits for the demo's documents to render, at most. */
const RENDER_PATIENCE_MS = 3 * 60_000;

/** The demo partners' statements whose render is in `status`. */
async function rendersIn(base: string, operator: Record<string, string>, status: string) {
  const ids = new Set<string>();
  for (const partner of DEMO_PARTNERS) {
    let after = "";
    for (;;) {
      const query = `status=${status}&limit=100${after ? `&starting_after=${after}` : ""}`;
      const res = await call(`${base}/operator/v1/partners/${partner}/statement-renders?${query}`, {
        headers: operator,
      });
      if (res.status !== 200) fail(`reading the demo's renders failed: ${res.status} ${res.text}`);
      const page = res.body as { data: { statement_id: string }[]; has_more: boolean };
      for (const render of page.data) ids.add(render.statement_id);
      if (!page.has_more) break;
      after = page.data.at(-1)?.statement_id ?? "";
    }
  }
  return ids;
}

/**
 * The demo's statement documents, rendered by the service: each product's presentation is set,
 * any demo statement without a render (a local database from before the service rendered) is
 * rendered, and the wait lasts until none is pending. Answers how many rendered now.
 */
async function renderDemoDocuments(base: string, operator: Record<string, string>) {
  for (const [merchantKey, presentation] of Object.entries(DEMO_PRESENTATION)) {
    const res = await call(`${base}/operator/v1/products/${merchantKey}`, {
      method: "PATCH",
      headers: { ...operator, "content-type": "application/json" },
      body: JSON.stringify(presentation),
    });
    if (res.status !== 200) fail(`setting a demo product's look failed: ${res.text}`);
  }
  const known = new Set<string>();
  for (const status of ["rendered", "failed"]) {
    for (const id of await rendersIn(base, operator, status)) known.add(id);
  }
  let pending = await rendersIn(base, operator, "pending");
  const unrendered = demoImports()
    .flatMap((i) => i.statements)
    .filter((s) => !known.has(s.statement_id) && !pending.has(s.statement_id));
  for (const statement of unrendered) {
    const res = await call(`${base}/operator/v1/statements/${statement.statement_id}/render`, {
      method: "POST",
      headers: operator,
    });
    if (res.status !== 202) fail(`rendering a demo statement failed: ${res.status} ${res.text}`);
  }
  const count = pending.size + unrendered.length;
  const deadline = Date.now() + RENDER_PATIENCE_MS;
  while (count > 0 && Date.now() < deadline) {
    pending = await rendersIn(base, operator, "pending");
    if (pending.size === 0) return count;
    await sleep(250);
  }
  if (count > 0) fail(`the demo's ${pending.size} statement documents did not render in time`);
  return count;
}

/** The newest outbox mail id to `to` (0 when none). */
async function newestMailId(base: string, operator: Record<string, string>, to: string) {
  const res = await call(`${base}/operator/v1/outbox?to=${encodeURIComponent(to)}`, {
    headers: operator,
  });
  if (res.status !== 200) fail(`reading the local outbox failed: ${res.status} ${res.text}`);
  const mail = (res.body as { data: { id: number; text: string }[] }).data;
  return mail.at(-1)?.id ?? 0;
}

/**
 * Invites the demo users (once), then asks for a sign-in link for each exactly as the sign-in
 * page does and reads it from the local outbox: one click takes a newcomer into the dashboard.
 */
async function demoSignInLinks(base: string, operator: Record<string, string>) {
  const links: { email: string; role: string; link: string }[] = [];
  for (const user of DEMO_USERS) {
    const invited = await call(`${base}/operator/v1/partners/${DEMO_PARTNER}/users`, {
      method: "POST",
      headers: { ...operator, "content-type": "application/json" },
      body: JSON.stringify(user),
    });
    if (invited.status !== 201 && invited.status !== 409) {
      fail(`inviting the demo ${user.role} failed: ${invited.status} ${invited.text}`);
    }
    const before = await newestMailId(base, operator, user.email);
    const asked = await call(`${base}/dashboard/sign-in`, {
      method: "POST",
      headers: { origin: base, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: user.email }).toString(),
    });
    if (asked.status !== 200) fail(`asking for a demo sign-in link failed: ${asked.status}`);
    // The link is mailed just after the answer: wait for it in the outbox.
    let link: string | undefined;
    for (let attempt = 0; attempt < 100 && !link; attempt++) {
      const res = await call(
        `${base}/operator/v1/outbox?to=${encodeURIComponent(user.email)}&after=${before}`,
        { headers: operator },
      );
      const mail = (res.body as { data: { text: string }[] }).data;
      link = mail.at(-1)?.text.match(/\S+\/dashboard\/sign-in\/confirm\?token=\S+/)?.[0];
      if (!link) await sleep(100);
    }
    if (!link) fail(`no sign-in link reached the outbox for ${user.email}`);
    links.push({ email: user.email, role: user.role, link });
  }
  return links;
}

/** Shell exports for the README's curls: `source .wrangler/demo.env`. */
function writeEnvFile(base: string, keys: Record<string, SavedKey>): void {
  const lines = [`export BASE=${base}`];
  for (const spec of DEMO_KEYS) {
    const key = keys[spec.name];
    if (key) lines.push(`export ${spec.name.toUpperCase()}=${key.api_key}`);
  }
  writeFileSync(ENV_FILE, `${lines.join("\n")}\n`);
}

/** Set once Ctrl-C (or termination) has asked the local run to stop. */
let stopping = false;

/** Forwards Ctrl-C (and termination) to the wrangler running then, and exits once it has stopped. */
function stopWithWrangler(): void {
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const server = wrangler;
    if (!server || server.exitCode !== null || server.signalCode !== null) process.exit(0);
    server.once("exit", () => process.exit(0));
    server.kill(signal);
    setTimeout(() => server.kill("SIGKILL"), 10_000).unref();
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, stop);
}

/**
 * Starts wrangler on `port` (behind the proxy) and resolves once it serves. Its exit ends the
 * local run, unless the proxy stopped it to restart it.
 */
async function startRuntime(port: number): Promise<Runtime> {
  // Ctrl-C during a restart: the old wrangler has stopped, and no new one is wanted.
  if (stopping) process.exit(0);
  const server = startWrangler(port);
  wrangler = server;
  let restarting = false;
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  server.once("exit", (code) => {
    if (!restarting && !stopping) process.exit(code ?? 1);
  });
  await waitUntilServing(`http://127.0.0.1:${port}`, server);
  return {
    port,
    memoryBytes: () => (server.pid ? workerdMemory(server.pid) : 0),
    async stop() {
      restarting = true;
      server.kill("SIGINT");
      const killer = setTimeout(() => server.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

async function main(): Promise<void> {
  const port = readPort();
  const devVars = ensureDevVars();
  const brand = readBrand(devVars);
  const operatorToken = devVars.OPERATOR_TOKEN;
  if (!operatorToken) fail(".dev.vars has no OPERATOR_TOKEN (see .dev.vars.example)");
  const operator = { authorization: `Bearer ${operatorToken}` };
  let boundBytes: number | null = null;
  try {
    boundBytes = readMemoryBound();
  } catch (error) {
    fail((error as Error).message);
  }
  await assertPortFree(port);
  migrate();

  stopWithWrangler();
  const base = `http://localhost:${port}`;
  try {
    const runtimePort = await freePort();
    await serveWithRestarts({ port, boundBytes, start: () => startRuntime(runtimePort) });
    startLocalCron(`http://127.0.0.1:${port}`);
    const statements = await importDemo(base, operator);
    const keys = await ensureKeys(base, brand, operator);
    const rendered = await renderDemoDocuments(base, operator);
    writeEnvFile(base, keys);
    const signIns = await demoSignInLinks(base, operator);

    // The curl printed below, checked before it is shown.
    const demoKey = keys[DEMO_KEYS[0]?.name ?? ""]?.api_key ?? "";
    const account = DEMO_KEYS[0]?.accounts[0];
    if (!account) fail("the demo has no account to show");
    const check = await partnerApi(base, brand, demoKey).statementsOf(account, "?limit=3");
    if (check.status !== 200) fail(`the demo curl does not work: ${check.status} ${check.text}`);
    const url = `${statementsUrl(base, account)}?limit=3`;
    console.log(
      [
        "",
        `✔ Card Account Statements API on ${base}`,
        `  Demo data: ${statements} statements loaded; ${rendered} PDFs rendered now.`,
        "",
        "  The demo customer's three newest statements, with the demo sandbox key:",
        "",
        `  curl -s -u ${demoKey}: '${url}'`,
        "",
        "  Keys for the README's examples: source .wrangler/demo.env",
        `  Operator API token: ${operatorToken} · API reference: ${base}/docs`,
        "",
        `  Partner dashboard (${DEMO_PARTNER}): open a link to sign in (each works once, for 15 min):`,
        ...signIns.map((s) => `    ${s.role.padEnd(9)} ${s.email.padEnd(28)} ${s.link}`),
        `  More links: ${base}/dashboard/sign-in. Mail goes to the local outbox, printed here.`,
        boundBytes === null
          ? "  The local runtime is never restarted for its memory (LOCAL_RUNTIME_MAX_MB=0)."
          : `  Past ${Math.round(boundBytes / 2 ** 20)} MB of memory (LOCAL_RUNTIME_MAX_MB) the local ` +
            "runtime restarts between requests, its state kept.",
        "  Press Ctrl-C to stop.",
        "",
      ].join("\n"),
    );
    // Log lines of the demo's last requests can still be in flight: let them pass unseen.
    setTimeout(() => {
      loadingDemo = false;
    }, 500);
  } catch (error) {
    fail(`loading the demo data failed: ${(error as Error).message}`);
  }
}

await main();
