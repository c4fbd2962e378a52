// The recipes for an endpoint and a dashboard page (docs/extending.md), followed as written on a
// copy of the service: each touches only the files it says, the copy type-checks, and a local run
// of the copy serves the new route (documented, scoped, paged, with real delivery attempts) and
// the new page.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../support/json";
import { type LocalService, startLocalService } from "../support/node/local-service";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const GUIDE = readFileSync(path.join(ROOT, "docs", "extending.md"), "utf8");
const BIN = path.join(ROOT, "node_modules", ".bin");

/** A section of the guide, from its heading to the next one of the same level. */
function section(title: string): string {
  const start = GUIDE.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`docs/extending.md has no section "${title}"`);
  const end = GUIDE.indexOf("\n## ", start + 1);
  return GUIDE.slice(start, end === -1 ? undefined : end);
}

/** The TypeScript code blocks of a section, in order. */
function codeBlocks(text: string): string[] {
  return [...text.matchAll(/```tsx?\n([\s\S]*?)```/g)].map((m) => m[1] as string);
}

const ENDPOINT = section("Adding an endpoint");
const PAGE = section("Adding a dashboard page");

const ROUTE_FILE = "src/webhooks/endpoint-routes.ts";
const ROUTE_LIST = "src/routes.ts";
const PAGE_FILE = "src/dashboard/products.tsx";
const PAGE_LIST = "src/pages.ts";

let copy: string;

/** The service as a fresh clone has it, in a temporary folder (its dependencies linked). */
function copyService(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "recipes-"));
  for (const entry of ["src", "versions", "migrations", "migrations-directory", "renderer"]) {
    cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  for (const file of [
    "wrangler.toml",
    "package.json",
    "tsconfig.json",
    "worker-configuration.d.ts",
    "biome.json",
    ".dev.vars.example",
  ]) {
    cpSync(path.join(ROOT, file), path.join(dir, file));
  }
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  symlinkSync(path.join(ROOT, "public"), path.join(dir, "public"));
  return dir;
}

const read = (file: string) => readFileSync(path.join(copy, file), "utf8");
const write = (file: string, text: string) => writeFileSync(path.join(copy, file), text);

/** Puts a snippet's imports after the file's last import; the rest is returned. */
function addImports(file: string, snippet: string): string {
  const lines = snippet.split("\n");
  const imports = lines.filter((line) => line.startsWith("import "));
  const text = read(file).split("\n");
  const last = text.findLastIndex(
    (line) => line.startsWith("import ") || line.startsWith("} from"),
  );
  text.splice(last + 1, 0, ...imports);
  write(file, text.join("\n"));
  return lines.filter((line) => !line.startsWith("import ")).join("\n");
}

/** Puts lines at the end of the list that `closing` ends (`] as const;`, `];`). */
function addToList(file: string, lines: string, closing: string): void {
  const text = read(file).split("\n");
  const at = text.lastIndexOf(closing);
  if (at === -1) throw new Error(`${file} has no list ending with ${closing}`);
  text.splice(at, 0, ...lines.split("\n").filter((line) => line.trim() !== ""));
  write(file, text.join("\n"));
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { cwd: copy, encoding: "utf8" });
  expect(result.status, `${command} ${args.join(" ")}\n${result.stdout}${result.stderr}`).toBe(0);
  return result.stdout;
}

/** Every file of `dir` under `root`, relative to it. */
function filesOf(root: string, dir = "src"): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const entry = path.join(dir, name);
    return statSync(path.join(root, entry)).isDirectory() ? filesOf(root, entry) : [entry];
  });
}

/** Lines added and removed in each file of src/ that the recipes changed or added. */
function changes(): Record<string, [added: number, removed: number]> {
  const out: Record<string, [number, number]> = {};
  for (const file of filesOf(copy)) {
    const before = path.join(ROOT, file);
    if (existsSync(before) && readFileSync(before, "utf8") === read(file)) continue;
    const diff = spawnSync(
      "git",
      ["diff", "--no-index", "--numstat", existsSync(before) ? before : "/dev/null", file],
      { cwd: copy, encoding: "utf8" },
    );
    const [added, removed] = diff.stdout.trim().split(/\s+/).map(Number);
    out[file] = [added ?? 0, removed ?? 0];
  }
  return out;
}

let service: LocalService;
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  copy = copyService();

  // Adding an endpoint: the declaration in its resource's file, its line in the route list.
  const [declaration = "", listLine = ""] = codeBlocks(ENDPOINT);
  expect(ENDPOINT).toContain(`\`${ROUTE_FILE}\``);
  expect(ENDPOINT).toContain(`\`${ROUTE_LIST}\``);
  const body = addImports(ROUTE_FILE, declaration).trim();
  write(ROUTE_FILE, `${read(ROUTE_FILE).trimEnd()}\n\n${body}\n`);
  addToList(ROUTE_LIST, listLine, "] as const;");
  // Adding a dashboard page: the page module, its import and line in the page list.
  const [page = "", pageLines = ""] = codeBlocks(PAGE);
  expect(PAGE).toContain(`\`${PAGE_FILE}\``);
  expect(PAGE).toContain(`\`${PAGE_LIST}\``);
  write(PAGE_FILE, page);
  addToList(PAGE_LIST, addImports(PAGE_LIST, pageLines), "];");
  // As both recipes say, formatted by Biome.
  expect(ENDPOINT).toContain(`npx biome check --write ${ROUTE_FILE} ${ROUTE_LIST}`);
  expect(PAGE).toContain(`npx biome check --write ${PAGE_FILE} ${PAGE_LIST}`);
  run(path.join(BIN, "biome"), ["check", "--write", "--vcs-enabled=false", ROUTE_FILE, ROUTE_LIST]);
  run(path.join(BIN, "biome"), ["check", "--write", "--vcs-enabled=false", PAGE_FILE, PAGE_LIST]);

  [service] = await Promise.all([startLocalService({ root: copy }), startReceiver()]);
}, 180_000);

afterAll(async () => {
  await service?.stop();
  receiver?.close();
  if (copy) rmSync(copy, { recursive: true, force: true });
});

function startReceiver(): Promise<void> {
  receiver = createServer((_req, res) => res.end());
  return new Promise((resolve) => {
    receiver.listen(0, "127.0.0.1", () => {
      const address = receiver.address();
      receiverUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
      resolve();
    });
  });
}

function operator(method: string, route: string, body?: unknown): Promise<Response> {
  return fetch(`${service.base}/operator/v1${route}`, {
    method,
    headers: {
      authorization: `Bearer ${service.operatorToken}`,
      "content-type": "application/json",
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const PARTNER = "recipe_bank";
const PRODUCT = { merchant_key: "mk_recipe", name: "Recipe Card" };

/** A partner with one product and a customer's account, and its sandbox keys. */
async function seed(): Promise<{ key: string; scopeless: string }> {
  await json(
    await operator("POST", "/import", {
      partners: [{ partner_id: PARTNER, name: "Recipe Bank", products: [PRODUCT] }],
      customers: [
        {
          customer_id: "cus_recipe",
          partner_id: PARTNER,
          environment: "sandbox",
          merchant_key: PRODUCT.merchant_key,
        },
      ],
      accounts: [{ account_id: "acc_recipe", customer_id: "cus_recipe" }],
    }),
    200,
  );
  const key = async (scopes: string[]) =>
    (
      await json<{ api_key: string }>(
        await operator("POST", `/partners/${PARTNER}/keys`, { environment: "sandbox", scopes }),
        201,
      )
    ).api_key;
  return { key: await key(["ACCOUNT_READ"]), scopeless: await key([]) };
}

describe("adding an endpoint, as docs/extending.md says", () => {
  it("touches its resource's file and one line of the route list, nothing else", () => {
    const changed = changes();
    expect(Object.keys(changed).sort()).toEqual(
      [ROUTE_FILE, ROUTE_LIST, PAGE_FILE, PAGE_LIST].sort(),
    );
    expect(changed[ROUTE_LIST]).toEqual([1, 0]);
    const [added, removed] = changed[ROUTE_FILE] ?? [];
    expect(removed).toBe(0);
    expect(ENDPOINT.replace(/\s+/g, " ")).toContain(
      `the declaration, ${added} lines with its imports, and one line of the list`,
    );
  });

  it("type-checks", () => {
    run(process.execPath, [path.join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "."]);
  });

  it("serves the route: scoped, paged by id, with the endpoint's delivery attempts", async () => {
    const { key, scopeless } = await seed();
    const call = (route: string, as = key) =>
      fetch(`${service.base}${route}`, { headers: { authorization: `Bearer ${as}` } });
    const endpoint = await json<{ webhook_endpoint_id: string }>(
      await fetch(`${service.base}/v2/webhook_endpoints`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ url: `${receiverUrl}/hooks` }),
      }),
      201,
    );
    const attempts = `/v2/webhook_endpoints/${endpoint.webhook_endpoint_id}/delivery_attempts`;
    expect(await json(await call(attempts), 200)).toEqual({ data: [], has_more: false });

    // A new statement is an event; its delivery to the endpoint is one attempt.
    await json(
      await operator("POST", "/import", {
        statements: [
          {
            statement_id: "st_recipe",
            account_id: "acc_recipe",
            period_end_date: "2026-09-30T23:59:59Z",
          },
        ],
      }),
      200,
    );
    let page: { data: Record<string, unknown>[]; has_more: boolean } = {
      data: [],
      has_more: false,
    };
    for (let i = 0; i < 150 && page.data.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      page = await json(await call(attempts), 200);
    }
    expect(page.data).toEqual([
      expect.objectContaining({
        webhook_endpoint_id: endpoint.webhook_endpoint_id,
        status: "succeeded",
        response_status: 200,
      }),
    ]);
    const last = page.data[0]?.attempt_id as string;
    expect(await json(await call(`${attempts}?limit=1&starting_after=${last}`), 200)).toEqual({
      data: [],
      has_more: false,
    });
    expect(await json(await call(`${attempts}?limit=0`), 400)).toMatchObject({
      details: [expect.stringContaining("limit")],
    });
    expect(await json(await call(attempts, scopeless), 403)).toEqual({
      error: { type: "FORBIDDEN_ERROR", message: "forbidden" },
    });
    const missing = await json(
      await call("/v2/webhook_endpoints/we_nothing/delivery_attempts"),
      404,
    );
    expect(missing).toMatchObject({
      error: { type: "NOT_FOUND_ERROR", param: "webhook_endpoint_id" },
    });
  });

  it("documents it in every version's reference", async () => {
    const { versions } = await json<{ versions: { reference: string }[] }>(
      await fetch(`${service.base}/changelog`),
      200,
    );
    for (const { reference } of versions) {
      const doc = await json<Json>(await fetch(`${service.base}${reference}`), 200);
      const operation =
        doc.paths["/v2/webhook_endpoints/{webhook_endpoint_id}/delivery_attempts"]?.get;
      expect(operation, reference).toMatchObject({
        operationId: "listWebhookEndpointDeliveryAttempts",
        "x-required-scope": "ACCOUNT_READ",
        responses: {
          200: {
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/DeliveryAttemptList" } },
            },
          },
        },
      });
      const names = operation.parameters.map(
        (p: { name?: string; $ref?: string }) => p.name ?? p.$ref,
      );
      expect(names).toEqual([
        "webhook_endpoint_id",
        "limit",
        "starting_after",
        "#/components/parameters/Version",
        "#/components/parameters/MerchantKey",
      ]);
    }
  });
});

describe("adding a dashboard page, as docs/extending.md says", () => {
  it("touches its page module and the page list's import and line, nothing else", () => {
    const changed = changes();
    expect(changed[PAGE_LIST]).toEqual([2, 0]);
    expect(changed[PAGE_FILE]?.[0]).toBe(codeBlocks(PAGE)[0]?.trimEnd().split("\n").length);
  });

  it("serves the page in the layout, with its link in the header, to signed-in users", async () => {
    const email = "admin@recipe-bank.example";
    await json(await operator("POST", `/partners/${PARTNER}/users`, { email }), 201);
    let link: string | undefined;
    for (let i = 0; i < 100 && !link; i++) {
      const outbox = await json<{ data: { text: string }[] }>(
        await operator("GET", `/outbox?to=${encodeURIComponent(email)}`),
        200,
      );
      link = outbox.data.at(-1)?.text.match(/token=([\w-]+)/)?.[1];
      if (!link) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const signedIn = await fetch(`${service.base}/dashboard/sign-in/confirm`, {
      method: "POST",
      headers: {
        origin: service.base,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ token: link ?? "" }).toString(),
      redirect: "manual",
    });
    expect(signedIn.status).toBe(303);
    const cookie = signedIn.headers.getSetCookie()[0]?.split(";")[0] ?? "";

    const res = await fetch(`${service.base}/dashboard/products`, { headers: { cookie } });
    const html = await res.text();
    expect(res.status, html).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(html).toContain("<title>Products · Card Statements dashboard</title>");
    expect(html).toContain("<h1>Products</h1>");
    expect(html).toContain(`<td>${PRODUCT.name}</td>`);
    expect(html).toContain(`<code>${PRODUCT.merchant_key}</code>`);
    expect(html).toContain('<a href="/dashboard/products" aria-current="page">Products</a>');
    const keys = await (
      await fetch(`${service.base}/dashboard/sandbox/keys`, { headers: { cookie } })
    ).text();
    expect(keys).toContain('<a href="/dashboard/products">Products</a>');

    const anonymous = await fetch(`${service.base}/dashboard/products`, { redirect: "manual" });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toBe("/dashboard/sign-in");
  });
});
