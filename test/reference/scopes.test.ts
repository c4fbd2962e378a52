// The reference's scope table: every operation of every version's document, for each
// environment's keys, with the scope it needs (as its `x-required-scope` and the route's own
// declaration say), where that comes from and why; and the behaviour it describes, unchanged: a
// key with ACCOUNT_READ manages its webhook endpoints, reads events and runs simulations, a key
// without it is refused those, and creating a key needs no scope.
import { describe, expect, it } from "vitest";
import { bundle } from "../../src/bundle";
import { scopeRows } from "../../src/reference/scopes";
import { SECTIONS } from "../../src/reference/sections";
import { ROUTES } from "../../src/routes";
import { api, expectJson } from "../support/api";
import { createKey, seedAccount } from "../support/fixtures";
import { request } from "../support/worker";

interface Doc {
  info: { description: string };
  paths: Record<string, Record<string, { "x-required-scope": string | null }>>;
}

/** The rows of the description's scope table: operation → [scope, from, why]. */
function tableOf(description: string): Map<string, string[]> {
  const start = description.indexOf("## Scopes");
  expect(start).toBeGreaterThan(-1);
  const rows = new Map<string, string[]>();
  for (const line of description.slice(start).split("\n")) {
    const cells = /^\| `([A-Z]+ [^`]+)` \| (.+?) \| (.+?) \| (.+) \|$/.exec(line);
    if (cells) rows.set(cells[1] as string, cells.slice(2) as string[]);
  }
  return rows;
}

describe("the reference's scope table", () => {
  it("names every operation's scope, where it comes from and why, in every document", async () => {
    for (const version of bundle.versions.map((v) => v.id)) {
      for (const environment of ["sandbox", "production"] as const) {
        if (!bundle.isSupported(version, environment)) continue;
        const query = environment === "sandbox" ? "" : "?environment=production";
        const doc = await expectJson<Doc>(await request(`/openapi/${version}.json${query}`), 200);
        const table = tableOf(doc.info.description);
        const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
          Object.entries(methods).map(([method, op]) => ({
            name: `${method.toUpperCase()} ${path}`,
            scope: op["x-required-scope"],
          })),
        );
        expect(operations.length).toBeGreaterThan(0);
        expect([...table.keys()].sort()).toEqual(operations.map((o) => o.name).sort());
        for (const { name, scope } of operations) {
          const [shown, from, why] = table.get(name) as string[];
          expect(shown, name).toBe(scope ? `\`${scope}\`` : "none");
          expect(["specification", "this service"], name).toContain(from);
          expect((why ?? "").length, name).toBeGreaterThan(20);
        }
      }
    }
  });

  it("has a rule for every section of the route list, and says the service's own scopes", () => {
    const rows = scopeRows(ROUTES);
    expect(rows).toHaveLength(ROUTES.length);
    const of = (method: string, path: string) =>
      rows.find((r) => r.method === method && r.path === path);
    for (const [method, path] of [
      ["POST", "/v2/webhook_endpoints"],
      ["GET", "/v2/webhook_endpoints"],
      ["GET", "/v2/events"],
      ["POST", "/v2/simulations/customers"],
      ["POST", "/v2/simulations/statements"],
      ["POST", "/v2/simulations/payment_methods"],
    ] as const) {
      expect(of(method, path), `${method} ${path}`).toMatchObject({
        scope: "ACCOUNT_READ",
        source: "service",
      });
    }
    expect(of("POST", "/v2/keys")).toMatchObject({ scope: null, source: "specification" });
    expect(of("GET", "/v2/customers/{customer_id}/accounts/{account_id}/statements")).toMatchObject(
      { scope: "ACCOUNT_READ", source: "specification" },
    );
    for (const section of Object.values(SECTIONS)) expect(section.why.length).toBeGreaterThan(20);
  });
});

describe("the scopes it describes", () => {
  it("are enforced as before: ACCOUNT_READ manages endpoints, reads events and simulates", async () => {
    const f = await seedAccount();
    const none = (await createKey(f.partnerId, "sandbox", [])).apiKey;
    const created = await api("/v2/webhook_endpoints", {
      key: f.key,
      method: "POST",
      body: { url: "https://hooks.example.com/ok/scopes" },
    });
    expect(created.status).toBe(201);
    expect((await api("/v2/webhook_endpoints", { key: f.key })).status).toBe(200);
    expect((await api("/v2/events", { key: f.key })).status).toBe(200);
    expect((await api("/v2/simulations/customers", { key: f.key, method: "POST" })).status).toBe(
      201,
    );
    for (const [method, path] of [
      ["GET", "/v2/webhook_endpoints"],
      ["GET", "/v2/events"],
      ["POST", "/v2/simulations/customers"],
    ]) {
      const res = await api(path as string, { key: none, method });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    // A valid key is enough to create a key (with exactly its own, empty, scopes).
    const minted = await api("/v2/keys", { key: none, method: "POST" });
    expect((await expectJson<{ scopes: string[] }>(minted, 201)).scopes).toEqual([]);
  });
});
