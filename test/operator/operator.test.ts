// The operator API over HTTP: its guard, the keys it creates and revokes, and no 5xx for any
// input.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { generateApiKey } from "../../src/domain/api-keys";
import worker from "../../src/index";
import { api, type ErrorBody, expectJson, operator, type StatementList } from "../support/api";
import { OLDEST } from "../support/bundle-versions";
import { createKey, seedAccount, statementsPath, uniqueId } from "../support/fixtures";
import { shardOf } from "../support/shards";
import { BASE, OPERATOR_TOKEN, request } from "../support/worker";

/** Every operator route, with a body that would be acceptable if the caller were allowed. */
const OPERATOR_ROUTES: { method: string; path: string; body?: string; type?: string }[] = [
  { method: "POST", path: "/operator/v1/import", body: "{}", type: "application/json" },
  {
    method: "POST",
    path: "/operator/v1/partners/p/keys",
    body: '{"environment":"sandbox","scopes":[]}',
    type: "application/json",
  },
  { method: "DELETE", path: "/operator/v1/keys/k" },
  {
    method: "PUT",
    path: "/operator/v1/partners/p/saved-versions/sandbox",
    body: `{"version":"${OLDEST}"}`,
    type: "application/json",
  },
  {
    method: "PUT",
    path: "/operator/v1/statements/s/pdf",
    body: "%PDF-1.4\n",
    type: "application/pdf",
  },
  { method: "POST", path: "/operator/v1/statements/s/hide" },
  { method: "GET", path: "/operator/v1/no-such-route" },
];

function routeRequest(
  route: (typeof OPERATOR_ROUTES)[number],
  authorization?: string,
): RequestInit {
  const headers: Record<string, string> = {};
  if (authorization !== undefined) headers.authorization = authorization;
  if (route.type) headers["content-type"] = route.type;
  return { method: route.method, headers, body: route.body };
}

/**
 * Sends a request through the same Worker with OPERATOR_TOKEN left unset. The test project's
 * bindings always set the token, so this calls the Worker's fetch handler directly with a copy of
 * those bindings minus the token: the full pipeline runs, only the configuration differs.
 */
async function fetchWithoutOperatorToken(
  path: string,
  init: RequestInit,
  token?: string,
): Promise<Response> {
  const ctx = createExecutionContext();
  const bindings = { ...env, OPERATOR_TOKEN: token };
  const res = await worker.fetch(new Request(`${BASE}${path}`, init), bindings, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe("operator guard", () => {
  it("answers 401 with the error envelope when no token is sent", async () => {
    for (const route of OPERATOR_ROUTES) {
      const res = await request(route.path, routeRequest(route));
      const body = await expectJson<ErrorBody>(res, 401);
      expect(body).toEqual({
        error: { type: "UNAUTHORIZED_ERROR", message: "A valid operator token is required." },
      });
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="operator"');
    }
  });

  it("answers 401 for a wrong token, a wrong scheme or a partner API key", async () => {
    const f = await seedAccount();
    const wrong = [
      "Bearer wrong-token",
      `Bearer ${OPERATOR_TOKEN}x`,
      `Bearer ${OPERATOR_TOKEN.slice(0, -1)}`,
      `Bearer ${OPERATOR_TOKEN.toUpperCase()}`,
      `Basic ${btoa(`${OPERATOR_TOKEN}:`)}`,
      `Token ${OPERATOR_TOKEN}`,
      OPERATOR_TOKEN,
      "Bearer",
      "Bearer ",
      `Bearer ${OPERATOR_TOKEN} extra`,
      `Bearer ${f.key}`,
    ];
    for (const authorization of wrong) {
      for (const route of OPERATOR_ROUTES) {
        const res = await request(route.path, routeRequest(route, authorization));
        const body = await expectJson<ErrorBody>(res, 401);
        expect(body.error.type, `${authorization} on ${route.path}`).toBe("UNAUTHORIZED_ERROR");
      }
    }
  });

  it("accepts the token with a case-insensitive scheme", async () => {
    for (const scheme of ["Bearer", "bearer", "BEARER"]) {
      const res = await request("/operator/v1/import", {
        method: "POST",
        headers: {
          authorization: `${scheme} ${OPERATOR_TOKEN}`,
          "content-type": "application/json",
        },
        body: "{}",
      });
      expect(res.status).toBe(200);
    }
  });

  it("answers 404 on every operator route when no token is configured", async () => {
    for (const token of [undefined, ""]) {
      for (const route of OPERATOR_ROUTES) {
        for (const authorization of [undefined, `Bearer ${OPERATOR_TOKEN}`, "Bearer "]) {
          const res = await fetchWithoutOperatorToken(
            route.path,
            routeRequest(route, authorization),
            token,
          );
          const body = await expectJson<ErrorBody>(res, 404);
          expect(body).toEqual({
            error: { type: "NOT_FOUND_ERROR", message: `No route ${route.method} ${route.path}.` },
          });
          expect(res.headers.get("www-authenticate")).toBeNull();
        }
      }
    }
  });

  it("answers the unconfigured 404 exactly like a route that does not exist", async () => {
    const hidden = await fetchWithoutOperatorToken("/operator/v1/import", { method: "POST" });
    const missing = await fetchWithoutOperatorToken("/nowhere/v1/import", { method: "POST" });
    expect(hidden.status).toBe(missing.status);
    expect((await hidden.text()).replace("/operator/", "/nowhere/")).toBe(await missing.text());
  });

  it("still serves the partner API when no operator token is configured", async () => {
    const f = await seedAccount({ statements: 1 });
    const res = await fetchWithoutOperatorToken(statementsPath(f), {
      headers: { authorization: `Bearer ${f.key}` },
    });
    const body = await expectJson<StatementList>(res, 200);
    expect(body.data).toHaveLength(1);
  });

  it("answers 404 with the envelope for an unknown operator route", async () => {
    const res = await operator("GET", "/import");
    const body = await expectJson<ErrorBody>(res, 404);
    expect(body.error.type).toBe("NOT_FOUND_ERROR");
  });
});

describe("operator keys", () => {
  it("creates a key for a partner and answers 201 with the key shown once", async () => {
    const f = await seedAccount();
    const res = await operator("POST", `/partners/${f.partnerId}/keys`, {
      environment: "sandbox",
      scopes: ["ACCOUNT_READ", "AUTHORIZED_USER_READ"],
    });
    const body = await expectJson(res, 201);
    expect(Object.keys(body).sort()).toEqual([
      "api_key",
      "created_at",
      "environment",
      "key_id",
      "scopes",
    ]);
    expect(body.api_key).toMatch(/^sk_sandbox_[0-9A-Za-z]{38,}$/);
    expect(body.environment).toBe("sandbox");
    expect(body.scopes).toEqual(["ACCOUNT_READ", "AUTHORIZED_USER_READ"]);
    expect(typeof body.key_id).toBe("string");
    expect(new Date(body.created_at as string).toISOString()).toBe(body.created_at);
  });

  it("creates production keys with the live prefix", async () => {
    const f = await seedAccount();
    const res = await operator("POST", `/partners/${f.partnerId}/keys`, {
      environment: "production",
      scopes: [],
    });
    const body = await expectJson(res, 201);
    expect(body.api_key).toMatch(/^sk_live_[0-9A-Za-z]{38,}$/);
    expect(body.scopes).toEqual([]);
  });

  it("creates a key that works on the very next request, with exactly its scopes", async () => {
    const f = await seedAccount({ statements: 2 });
    const reader = await createKey(f.partnerId, "sandbox", ["ACCOUNT_READ"]);
    const list = await expectJson<StatementList>(
      await api(statementsPath(f), { key: reader.apiKey }),
      200,
    );
    expect(list.data).toHaveLength(2);

    const scopeless = await createKey(f.partnerId, "sandbox", []);
    const forbidden = await api(statementsPath(f), { key: scopeless.apiKey });
    expect(await expectJson(forbidden, 403)).toEqual({
      error: { type: "FORBIDDEN_ERROR", message: "forbidden" },
    });
    // A route that needs no scope still works for it.
    expect((await api(`/v2/customers/${f.customerId}`, { key: scopeless.apiKey })).status).toBe(
      200,
    );
  });

  it("rejects an unknown scope or environment with 400", async () => {
    const f = await seedAccount();
    const bad: unknown[] = [
      { environment: "sandbox", scopes: ["ACCOUNT_READ", "EVERYTHING"] },
      { environment: "staging", scopes: [] },
      { environment: "Sandbox", scopes: [] },
      { environment: "live", scopes: [] },
      { scopes: [] },
      { environment: "sandbox" },
      { environment: "sandbox", scopes: "ACCOUNT_READ" },
      { environment: "sandbox", scopes: [null] },
      { environment: "sandbox", scopes: [], admin: true },
      { environment: "sandbox", scopes: [], name: "" },
      [],
      "sandbox",
      null,
      42,
    ];
    for (const body of bad) {
      const res = await operator("POST", `/partners/${f.partnerId}/keys`, body);
      const error = await expectJson<ErrorBody>(res, 400);
      expect(error.error.type, JSON.stringify(body)).toBe("INVALID_REQUEST_ERROR");
    }
    for (const raw of ["", "{", "not json"]) {
      const res = await operator("POST", `/partners/${f.partnerId}/keys`, raw, {
        "content-type": "application/json",
      });
      expect((await expectJson<ErrorBody>(res, 400)).error.type).toBe("INVALID_REQUEST_ERROR");
    }
  });

  it("names the offending field when a scope is unknown", async () => {
    const f = await seedAccount();
    const res = await operator("POST", `/partners/${f.partnerId}/keys`, {
      environment: "sandbox",
      scopes: ["ACCOUNT_READ", "EVERYTHING"],
    });
    const body = await expectJson<ErrorBody>(res, 400);
    expect(body.error.details?.[0]).toMatch(/^scopes\[1\]: /);
  });

  it("answers 404 for an unknown partner", async () => {
    const res = await operator("POST", `/partners/${uniqueId("nobody")}/keys`, {
      environment: "sandbox",
      scopes: [],
    });
    expect((await expectJson<ErrorBody>(res, 404)).error.type).toBe("NOT_FOUND_ERROR");
  });

  it("revokes a key with 204 and the key fails with 401 on the very next request", async () => {
    const f = await seedAccount({ statements: 1 });
    expect((await api(statementsPath(f), { key: f.key })).status).toBe(200);
    const del = await operator("DELETE", `/keys/${f.keyId}`);
    expect(del.status).toBe(204);
    expect(await del.text()).toBe("");

    const revoked = await api(statementsPath(f), { key: f.key });
    const body = await expectJson<ErrorBody>(revoked, 401);
    expect(body.error.type).toBe("UNAUTHORIZED_ERROR");
    expect(revoked.headers.get("x-service-version")).toBeNull();
    // Indistinguishable from a well-formed key that was never issued.
    const never = await api(statementsPath(f), {
      key: generateApiKey("sandbox", await shardOf(f.partnerId)),
    });
    expect(await never.text()).toBe(JSON.stringify(body));
  });

  it("revokes only the key named", async () => {
    const f = await seedAccount({ statements: 1 });
    const kept = await createKey(f.partnerId, "sandbox", ["ACCOUNT_READ"]);
    expect((await operator("DELETE", `/keys/${f.keyId}`)).status).toBe(204);
    expect((await api(statementsPath(f), { key: kept.apiKey })).status).toBe(200);
  });

  it("answers 204 again for a key already revoked", async () => {
    const f = await seedAccount();
    expect((await operator("DELETE", `/keys/${f.keyId}`)).status).toBe(204);
    expect((await operator("DELETE", `/keys/${f.keyId}`)).status).toBe(204);
  });

  it("answers 404 for an unknown key", async () => {
    for (const id of [uniqueId("key"), "%00", "..", "a%2Fb"]) {
      const res = await operator("DELETE", `/keys/${id}`);
      expect((await expectJson<ErrorBody>(res, 404)).error.type).toBe("NOT_FOUND_ERROR");
    }
  });
});

describe("operator input never causes a 5xx", () => {
  it("answers 4xx for odd ids, odd methods and odd encodings in every path", async () => {
    const f = await seedAccount({ statements: 1 });
    const ids = [
      "%ZZ",
      "%00",
      "%E0%A4%A",
      "..%2F..",
      "a%20b",
      "%F0%9F%92%A9",
      "x".repeat(3000),
      "%",
    ];
    for (const id of ids) {
      const attempts: [string, string, string?, string?][] = [
        [
          "POST",
          `/partners/${id}/keys`,
          '{"environment":"sandbox","scopes":[]}',
          "application/json",
        ],
        ["DELETE", `/keys/${id}`],
        [
          "PUT",
          `/partners/${id}/saved-versions/sandbox`,
          `{"version":"${OLDEST}"}`,
          "application/json",
        ],
        [
          "PUT",
          `/partners/${f.partnerId}/saved-versions/${id}`,
          `{"version":"${OLDEST}"}`,
          "application/json",
        ],
        ["PUT", `/statements/${id}/pdf`, "%PDF-1.4\n", "application/pdf"],
        ["POST", `/statements/${id}/hide`],
        ["GET", `/${id}`],
        ["PATCH", "/import", "{}", "application/json"],
      ];
      for (const [method, path, body, type] of attempts) {
        const res = await operator(method, path, body, type ? { "content-type": type } : {});
        expect(res.status, `${method} ${path.slice(0, 80)}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${method} ${path.slice(0, 80)}`).toBeLessThan(500);
        await res.body?.cancel();
      }
    }
  });
});
