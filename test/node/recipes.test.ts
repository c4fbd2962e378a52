// The recipes for an endpoint, a resource, a dashboard page and a statement field
// (docs/extending.md), followed as written on a copy of the service: each touches only the files
// it says, the copy type-checks, and a local run of the copy serves the new route (documented,
// scoped, paged, with real delivery attempts), the new resource in the version that releases it
// (and not before), the new page, and the new field in every version; the clients regenerate with
// the new version.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
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

/** The shell blocks of a section, in order: each one's commands, a line each. */
function shellBlocks(text: string): string[][] {
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
    (m[1] as string).split("\n").filter((line) => line.trim() !== ""),
  );
}

const ENDPOINT = section("Adding an endpoint");
const RESOURCE = section("Adding a resource");
const PAGE = section("Adding a dashboard page");
const FIELD = section("Adding a statement field");

const ROUTE_FILE = "src/webhook-deliveries/routes.ts";
const ROUTE_LIST = "src/routes.ts";
const PAGE_FILE = "src/products/products-page.tsx";
const PAGE_ENTRY = "src/products/index.ts";
const PAGE_LIST = "src/pages.ts";
const RESOURCE_FILES = [
  "src/products/api-schemas.ts",
  "src/products/routes.ts",
  "src/products/index.ts",
];
const SCHEMA_LIST = "src/api-model.ts";
const SECTION_LIST = "src/reference/sections.ts";
const VERSION = "2027-03-01";
const VERSION_FILE = `versions/${VERSION}.ts`;
const VERSION_LIST = "versions/index.ts";
const AMOUNT_LIST = "src/domain/statement-amounts.ts";
const CLIENTS = "npm run client:generate && npm run client:python:generate";

let copy: string;

/** The service as a fresh clone has it, in a temporary folder (its dependencies linked). */
function copyService(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "recipes-"));
  const entries = ["src", "versions", "migrations", "migrations-directory", "renderer", "scripts"];
  // The clients and what their generators start the service with.
  entries.push("packages", path.join("test", "support"));
  for (const entry of entries) {
    cpSync(path.join(ROOT, entry), path.join(dir, entry), {
      recursive: true,
      filter: (source) => !/__pycache__|node_modules/.test(source),
    });
  }
  for (const file of [
    "wrangler.toml",
    "package.json",
    "tsconfig.json",
    "worker-configuration.d.ts",
    "biome.json",
    // What `npm run db:generate` reads.
    "drizzle.config.ts",
    "drizzle.directory.config.ts",
    ".dev.vars.example",
    ".gitignore",
  ]) {
    cpSync(path.join(ROOT, file), path.join(dir, file));
  }
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  symlinkSync(path.join(ROOT, "public"), path.join(dir, "public"));
  // A clone is a repository: Biome reads its ignore file through it.
  spawnSync("git", ["init", "-q"], { cwd: dir });
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

/** A command line of the guide, run in the copy as a shell runs it, with the project's tools. */
function runLine(line: string): void {
  const result = spawnSync("bash", ["-c", line], {
    cwd: copy,
    encoding: "utf8",
    env: { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH}` },
  });
  expect(result.status, `${line}\n${result.stdout}${result.stderr}`).toBe(0);
}

/** Every file of `dir` under `root`, relative to it. */
function filesOf(root: string, dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const entry = path.join(dir, name);
    return statSync(path.join(root, entry)).isDirectory() ? filesOf(root, entry) : [entry];
  });
}

/** Lines added and removed in each file of src/ that the recipes changed or added. */
function changes(): Record<string, [added: number, removed: number]> {
  const out: Record<string, [number, number]> = {};
  for (const file of [...filesOf(copy, "src"), ...filesOf(copy, "versions")]) {
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
let seeded: Promise<{ key: string; scopeless: string }> | undefined;

/** The partner's keys, seeded once for every test that calls the copy's API. */
function keys(): Promise<{ key: string; scopeless: string }> {
  seeded ??= seed();
  return seeded;
}
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
  // Adding a resource: its folder, its lines in three lists, its version; formatted and the
  // clients regenerated by the guide's own commands.
  const [
    schemas = "",
    routes = "",
    entry = "",
    routeLines = "",
    schemaLine = "",
    sectionLines = "",
  ] = codeBlocks(RESOURCE);
  const versionModule = codeBlocks(RESOURCE)[6] ?? "";
  const [newVersion = [], finish = []] = shellBlocks(RESOURCE);
  for (const file of [...RESOURCE_FILES, ROUTE_LIST, SCHEMA_LIST, SECTION_LIST, VERSION_FILE]) {
    expect(RESOURCE).toContain(`\`${file}\``);
  }
  mkdirSync(path.join(copy, "src", "products"));
  for (const [file, text] of [
    [RESOURCE_FILES[0], schemas],
    [RESOURCE_FILES[1], routes],
    [RESOURCE_FILES[2], entry],
  ] as const) {
    write(file ?? "", text);
  }
  // Adding a dashboard page, in the folder of the resource just made: the page module, its line in
  // the feature's entry, its import and line in the page list.
  const [page = "", entryLine = "", pageLines = ""] = codeBlocks(PAGE);
  for (const file of [PAGE_FILE, PAGE_ENTRY, PAGE_LIST]) expect(PAGE).toContain(`\`${file}\``);
  write(PAGE_FILE, page);
  write(PAGE_ENTRY, `${read(PAGE_ENTRY).trimEnd()}\n${entryLine}`);
  addToList(PAGE_LIST, addImports(PAGE_LIST, pageLines), "];");
  addToList(ROUTE_LIST, addImports(ROUTE_LIST, routeLines), "] as const;");
  addToList(SCHEMA_LIST, addImports(SCHEMA_LIST, schemaLine), "]);");
  addToList(SECTION_LIST, sectionLines, "};");
  expect(newVersion).toEqual([`npm run version:new -- ${VERSION}`]);
  for (const line of newVersion) runLine(line);
  write(VERSION_FILE, versionModule);
  expect(finish).toEqual([
    `npx biome check --write src/products ${ROUTE_LIST} ${SCHEMA_LIST} ${SECTION_LIST} versions`,
    CLIENTS,
  ]);
  // Adding a statement field: its row at the end of the amounts' list, its migration, formatted.
  // Its last command regenerates the clients, as the resource's does next: they run it once.
  const [amountRow = ""] = codeBlocks(FIELD);
  const [fieldCommands = []] = shellBlocks(FIELD);
  expect(FIELD).toContain(`\`${AMOUNT_LIST}\``);
  addToList(AMOUNT_LIST, amountRow, "] as const satisfies readonly StatementAmount[];");
  expect(fieldCommands).toEqual([
    "npm run db:generate",
    `npx biome check --write ${AMOUNT_LIST}`,
    CLIENTS,
  ]);
  for (const line of fieldCommands.slice(0, -1)) runLine(line);
  for (const line of finish) runLine(line);
  // As the other recipes say, formatted by Biome.
  expect(ENDPOINT).toContain(`npx biome check --write ${ROUTE_FILE} ${ROUTE_LIST}`);
  expect(PAGE.replace(/\s+/g, " ")).toContain(
    `npx biome check --write ${PAGE_FILE} ${PAGE_ENTRY} ${PAGE_LIST}`,
  );
  run(path.join(BIN, "biome"), ["check", "--write", "--vcs-enabled=false", ROUTE_FILE, ROUTE_LIST]);
  run(path.join(BIN, "biome"), [
    "check",
    "--write",
    "--vcs-enabled=false",
    PAGE_FILE,
    PAGE_ENTRY,
    PAGE_LIST,
  ]);

  [service] = await Promise.all([startLocalService({ root: copy }), startReceiver()]);
});

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
const OTHER_PRODUCT = { merchant_key: "mk_other", name: "Another Partner's Card" };

/** A partner with one product and a customer's account, and its sandbox keys. */
async function seed(): Promise<{ key: string; scopeless: string }> {
  await json(
    await operator("POST", "/import", {
      partners: [
        { partner_id: PARTNER, name: "Recipe Bank", products: [PRODUCT] },
        { partner_id: "other_bank", name: "Other Bank", products: [OTHER_PRODUCT] },
      ],
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
  it("touches its feature's routes file and one line of the route list, nothing else", () => {
    const changed = changes();
    expect(Object.keys(changed).sort()).toEqual(
      [
        ROUTE_FILE,
        ROUTE_LIST,
        PAGE_FILE,
        PAGE_LIST,
        ...RESOURCE_FILES,
        SCHEMA_LIST,
        SECTION_LIST,
        VERSION_FILE,
        VERSION_LIST,
        AMOUNT_LIST,
      ].sort(),
    );
    // Its one line, and the resource's import and two lines.
    expect(changed[ROUTE_LIST]).toEqual([1 + 3, 0]);
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
    const { key, scopeless } = await keys();
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

describe("adding a resource, as docs/extending.md says", () => {
  it("adds its folder, a line in each list, its version module and nothing else", () => {
    const changed = changes();
    // The entry holds the page's line too, which the page's recipe adds.
    const pageLines = (file: string) => (file === PAGE_ENTRY ? 1 : 0);
    for (const [file, text] of RESOURCE_FILES.map((file, at) => [file, codeBlocks(RESOURCE)[at]])) {
      expect(changed[file ?? ""], file).toEqual([
        (text?.trimEnd().split("\n").length ?? 0) + pageLines(file ?? ""),
        0,
      ]);
    }
    expect(changed[SCHEMA_LIST]).toEqual([2, 0]);
    expect(changed[SECTION_LIST]).toEqual([
      codeBlocks(RESOURCE)[5]?.trimEnd().split("\n").length,
      0,
    ]);
    expect(changed[VERSION_FILE]?.[0]).toBe(codeBlocks(RESOURCE)[6]?.trimEnd().split("\n").length);
    // versions/index.ts: the module's import, and its place in VERSIONS after `latest`.
    const index = read(VERSION_LIST);
    expect(index).toContain(`import { v2027_03_01 } from "./${VERSION}";`);
    expect(index.replace(/\s+/g, " ")).toContain("[ latest, v2027_03_01, v2026_11_28,");
  });

  it("regenerates both clients with the new version and its schemas", () => {
    const generated = path.join(copy, "packages", "client", "src", "generated");
    const types = readFileSync(path.join(generated, "v2027_03_01.ts"), "utf8");
    expect(types).toContain('"/v2/products": {');
    expect(types).toContain('"/v2/products/{merchant_key}": {');
    expect(types).toContain("Product: {");
    expect(readFileSync(path.join(generated, "index.ts"), "utf8")).toContain(`"${VERSION}"`);
    const before = readFileSync(path.join(generated, "v2026_11_28.ts"), "utf8");
    expect(before).not.toContain("/v2/products");
    const python = readdirSync(path.join(copy, "packages", "client-python"), { recursive: true })
      .map(String)
      .filter((file) => file.endsWith(".py"))
      .map((file) => readFileSync(path.join(copy, "packages", "client-python", file), "utf8"))
      .join("\n");
    expect(python).toContain(VERSION);
    expect(python).toContain("/v2/products/{merchant_key}");
    // The endpoint's recipe regenerates them with the same command; its route's name was taken.
    expect(shellBlocks(ENDPOINT)).toEqual([
      ["npm run client:generate && npm run client:python:generate"],
    ]);
    expect(python).toContain("client.webhook_endpoints.delivery_attempts");
    expect(python).toContain("def list(");
  });

  it("serves both routes in its version, to any key of the partner, and no other partner's", async () => {
    const { key, scopeless } = await keys();
    const call = (route: string, as = key, version = VERSION) =>
      fetch(`${service.base}${route}`, {
        headers: { authorization: `Bearer ${as}`, "x-service-version": version },
      });
    const list = { data: [PRODUCT], has_more: false };
    expect(await json(await call("/v2/products"), 200)).toEqual(list);
    expect(await json(await call("/v2/products", scopeless), 200)).toEqual(list);
    expect(await json(await call("/v2/products?limit=1&starting_after=mk_recipe"), 200)).toEqual({
      data: [],
      has_more: false,
    });
    expect(await json(await call("/v2/products?limit=0"), 400)).toMatchObject({
      details: [expect.stringContaining("limit")],
    });
    expect(await json(await call("/v2/products/mk_recipe"), 200)).toEqual(PRODUCT);
    for (const missing of ["mk_other", "mk_nothing"]) {
      expect(await json(await call(`/v2/products/${missing}`), 404)).toEqual({
        error: {
          type: "NOT_FOUND_ERROR",
          message: "You have no such product.",
          param: "merchant_key",
        },
      });
    }
  });

  it("is not in the versions before it: their clients meet an unknown route", async () => {
    const { key } = await keys();
    for (const route of ["/v2/products", "/v2/products/mk_recipe"]) {
      const res = await fetch(`${service.base}${route}`, {
        headers: { authorization: `Bearer ${key}`, "x-service-version": "2026-11-28" },
      });
      expect(await json(res, 404)).toMatchObject({ error: { type: "NOT_FOUND_ERROR" } });
    }
  });

  it("documents it in its version's reference, with its section and scope, and not before", async () => {
    const { versions } = await json<{ versions: { version: string; reference: string }[] }>(
      await fetch(`${service.base}/changelog`),
      200,
    );
    expect(versions.map((v) => v.version)).toContain(VERSION);
    for (const { version, reference } of versions) {
      const doc = await json<Json>(await fetch(`${service.base}${reference}`), 200);
      if (version < VERSION) {
        expect(Object.keys(doc.paths), reference).not.toContain("/v2/products");
        expect(Object.keys(doc.components.schemas), reference).not.toContain("Product");
        continue;
      }
      expect(doc.paths["/v2/products"]?.get, reference).toMatchObject({
        operationId: "listProducts",
        tags: ["Products"],
        "x-required-scope": null,
        responses: {
          200: {
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/ProductList" } },
            },
          },
        },
      });
      expect(
        doc.paths["/v2/products/{merchant_key}"]?.get?.responses[404],
        reference,
      ).toBeDefined();
      expect(doc.components.schemas.Product.properties, reference).toHaveProperty("merchant_key");
      expect(doc.tags, reference).toContainEqual({
        name: "Products",
        description: expect.stringContaining("card products"),
      });
      expect(doc.info.description, reference).toContain("| `GET /v2/products` | none |");
    }
  });
});

describe("adding a dashboard page, as docs/extending.md says", () => {
  it("touches its page module, its entry's line and the page list's import and line", () => {
    const changed = changes();
    expect(changed[PAGE_LIST]).toEqual([2, 0]);
    expect(read(PAGE_ENTRY)).toContain(codeBlocks(PAGE)[1]?.trim() ?? "-");
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

describe("adding a statement field, as docs/extending.md says", () => {
  const STATEMENT = "st_cash_advances";
  const statementOf = (cashAdvances: number) => ({
    statement_id: STATEMENT,
    account_id: "acc_recipe",
    period_end_date: "2026-10-31T23:59:59Z",
    currency: "USD",
    cash_advances: cashAdvances,
  });

  it("adds one row to the amounts' list and a migration, nothing else", () => {
    const changed = changes();
    expect(changed[AMOUNT_LIST]).toEqual([codeBlocks(FIELD)[0]?.trimEnd().split("\n").length, 0]);
    const added = (dir: string) =>
      filesOf(copy, dir).filter((file) => !existsSync(path.join(ROOT, file)));
    const migrations = added("migrations");
    expect(migrations.filter((file) => file.endsWith(".sql"))).toHaveLength(1);
    const sql = migrations.find((file) => file.endsWith(".sql")) ?? "";
    expect(read(sql)).toContain("ALTER TABLE `statements` ADD `cash_advances` integer;");
    expect(added("migrations-directory")).toEqual([]);
  });

  it("refuses an imported amount of the wrong sign, naming the field, and stores nothing", async () => {
    await keys();
    const refused = await json<{ error: { details: string[] } }>(
      await operator("POST", "/import", { statements: [statementOf(-1)] }),
      400,
    );
    expect(refused.error.details).toEqual([
      expect.stringContaining(".cash_advances: must not be negative (a charge)"),
    ]);
  });

  it("is imported, and read back on the list and the retrieve in every version", async () => {
    const { key } = await keys();
    await json(await operator("POST", "/import", { statements: [statementOf(1500)] }), 200);
    const { versions } = await json<{ versions: { version: string }[] }>(
      await fetch(`${service.base}/changelog`),
      200,
    );
    expect(versions.length).toBeGreaterThan(1);
    const statements = "/v2/customers/cus_recipe/accounts/acc_recipe/statements";
    for (const { version } of versions) {
      const call = (route: string) =>
        fetch(`${service.base}${route}`, {
          headers: { authorization: `Bearer ${key}`, "x-service-version": version },
        });
      const list = await json<{ data: { statement_id: string }[] }>(await call(statements), 200);
      expect(
        list.data.find((s) => s.statement_id === STATEMENT),
        version,
      ).toMatchObject({
        cash_advances: 1500,
      });
      expect(await json(await call(`${statements}/${STATEMENT}`), 200), version).toMatchObject({
        statement_id: STATEMENT,
        cash_advances: 1500,
      });
    }
  });

  it("documents it in every version's reference", async () => {
    const { versions } = await json<{ versions: { reference: string }[] }>(
      await fetch(`${service.base}/changelog`),
      200,
    );
    for (const { reference } of versions) {
      const doc = await json<Json>(await fetch(`${service.base}${reference}`), 200);
      expect(doc.components.schemas.Statement.properties.cash_advances, reference).toMatchObject({
        type: "integer",
        description: "Total cash advances posted in the cycle. Positive.",
      });
    }
  });
});
