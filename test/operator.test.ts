// The operator API over HTTP: the guard, keys, saved versions, PDF upload and hiding.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { generateApiKey } from "../src/domain/api-keys";
import worker from "../src/index";
import { ALL_VERSIONS, NEWEST_RELEASED, OLDEST, SANDBOX_ONLY } from "./bundle-versions";
import {
  api,
  BASE,
  createKey,
  expectJson,
  importData,
  monthlyStatement,
  OPERATOR_TOKEN,
  operator,
  pdfBytes,
  request,
  seedAccount,
  statementsPath,
  uniqueId,
} from "./helpers";

interface ErrorBody {
  error: { type: string; message: string; details?: string[]; param?: string };
}

interface StatementList {
  data: Record<string, unknown>[];
  has_more: boolean;
}

const MIB = 1024 * 1024;

/** The first page of a fixture's statements, read with its own key. */
async function listStatements(
  f: { key: string; customerId: string; accountId: string },
  version?: string,
): Promise<StatementList> {
  return expectJson<StatementList>(await api(statementsPath(f), { key: f.key, version }), 200);
}

/** The path of a listed statement's signed PDF link (served by this same Worker). */
function linkPath(statement: Record<string, unknown> | undefined): string {
  const url = statement?.pdf_url;
  if (typeof url !== "string") throw new Error("the statement carries no pdf_url");
  return url.slice(BASE.length);
}

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
    const never = await api(statementsPath(f), { key: generateApiKey("sandbox") });
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

describe("operator saved versions", () => {
  async function versionServed(key: string, path: string): Promise<string | null> {
    const res = await api(path, { key });
    expect(res.status).toBe(200);
    return res.headers.get("x-service-version");
  }

  it("saves a version per environment that applies from the next request", async () => {
    const f = await seedAccount({ statements: 1 });
    const live = await createKey(f.partnerId, "production", ["ACCOUNT_READ"]);
    const path = statementsPath(f);
    expect(await versionServed(f.key, path)).toBe(OLDEST);

    const put = await operator("PUT", `/partners/${f.partnerId}/saved-versions/sandbox`, {
      version: NEWEST_RELEASED,
    });
    expect(await expectJson(put, 200)).toEqual({
      partner_id: f.partnerId,
      environment: "sandbox",
      version: NEWEST_RELEASED,
    });
    expect(await versionServed(f.key, path)).toBe(NEWEST_RELEASED);
    // The production saved version is separate.
    const liveRes = await api("/v2/customers", { key: live.apiKey });
    expect(liveRes.headers.get("x-service-version")).toBe(OLDEST);

    await operator("PUT", `/partners/${f.partnerId}/saved-versions/sandbox`, {
      version: SANDBOX_ONLY,
    });
    expect(await versionServed(f.key, path)).toBe(SANDBOX_ONLY);
    const body = await expectJson<StatementList>(await api(path, { key: f.key }), 200);
    expect(body.data).toHaveLength(1);

    await operator("PUT", `/partners/${f.partnerId}/saved-versions/production`, {
      version: NEWEST_RELEASED,
    });
    expect(await versionServed(live.apiKey, "/v2/customers")).toBe(NEWEST_RELEASED);
    expect(await versionServed(f.key, path)).toBe(SANDBOX_ONLY);
  });

  it("lets the request header override the saved version", async () => {
    const f = await seedAccount({ statements: 1 });
    await operator("PUT", `/partners/${f.partnerId}/saved-versions/sandbox`, {
      version: NEWEST_RELEASED,
    });
    const res = await api(statementsPath(f), { key: f.key, version: OLDEST });
    expect(res.headers.get("x-service-version")).toBe(OLDEST);
  });

  it("refuses latest for production with 400 and keeps the saved version", async () => {
    const f = await seedAccount();
    const live = await createKey(f.partnerId, "production", []);
    const res = await operator("PUT", `/partners/${f.partnerId}/saved-versions/production`, {
      version: SANDBOX_ONLY,
    });
    const body = await expectJson<ErrorBody>(res, 400);
    expect(body.error.type).toBe("INVALID_REQUEST_ERROR");
    expect(body.error.message).toContain(JSON.stringify(SANDBOX_ONLY));
    expect(body.error.message).toContain(OLDEST);
    expect(await versionServed(live.apiKey, "/v2/customers")).toBe(OLDEST);
  });

  it("refuses versions that are not offered with 400", async () => {
    const f = await seedAccount();
    const bad: unknown[] = [
      { version: "" },
      { version: ` ${OLDEST}` },
      { version: `${OLDEST} ` },
      { version: "2099-01-01" },
      { version: "LATEST" },
      { version: `${OLDEST},${NEWEST_RELEASED}` },
      { version: 20250505 },
      { version: null },
      {},
      { version: OLDEST, extra: 1 },
      [],
      OLDEST,
    ];
    for (const body of bad) {
      const res = await operator("PUT", `/partners/${f.partnerId}/saved-versions/sandbox`, body);
      const error = await expectJson<ErrorBody>(res, 400);
      expect(error.error.type, JSON.stringify(body)).toBe("INVALID_REQUEST_ERROR");
    }
    expect(await versionServed(f.key, `/v2/customers/${f.customerId}`)).toBe(OLDEST);
  });

  it("answers 400 for an unknown environment", async () => {
    const f = await seedAccount();
    for (const environment of ["staging", "Sandbox", "live", "sandbox%20"]) {
      const res = await operator("PUT", `/partners/${f.partnerId}/saved-versions/${environment}`, {
        version: OLDEST,
      });
      expect((await expectJson<ErrorBody>(res, 400)).error.type).toBe("INVALID_REQUEST_ERROR");
    }
  });

  it("answers 404 for an unknown partner", async () => {
    const res = await operator("PUT", `/partners/${uniqueId("nobody")}/saved-versions/sandbox`, {
      version: OLDEST,
    });
    expect((await expectJson<ErrorBody>(res, 404)).error.type).toBe("NOT_FOUND_ERROR");
  });
});

describe("operator PDF upload", () => {
  const pdfHeaders = { "content-type": "application/pdf" };

  it("stores the PDF with 204 and serves it through the statement's signed link", async () => {
    const f = await seedAccount({ statements: 1 });
    const statementId = `${f.accountId}_st_001`;
    const before = await listStatements(f);
    expect(before.data[0]).not.toHaveProperty("pdf_url");

    const bytes = pdfBytes("upload");
    const put = await operator("PUT", `/statements/${statementId}/pdf`, bytes, pdfHeaders);
    expect(put.status).toBe(204);
    expect(await put.text()).toBe("");

    const after = await listStatements(f);
    const download = await request(linkPath(after.data[0]));
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
  });

  it("replaces a PDF uploaded before", async () => {
    const f = await seedAccount({ statements: 1 });
    const statementId = `${f.accountId}_st_001`;
    await operator("PUT", `/statements/${statementId}/pdf`, pdfBytes("first"), pdfHeaders);
    const second = pdfBytes("second");
    expect(
      (await operator("PUT", `/statements/${statementId}/pdf`, second, pdfHeaders)).status,
    ).toBe(204);
    const list = await listStatements(f);
    const download = await request(linkPath(list.data[0]));
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(second);
  });

  it("accepts a content type with parameters", async () => {
    const f = await seedAccount({ statements: 1 });
    const res = await operator("PUT", `/statements/${f.accountId}_st_001/pdf`, pdfBytes(), {
      "content-type": "Application/PDF; name=statement.pdf",
    });
    expect(res.status).toBe(204);
  });

  it("answers 415 for any other content type", async () => {
    const f = await seedAccount({ statements: 1 });
    const path = `/statements/${f.accountId}_st_001/pdf`;
    for (const type of ["application/json", "text/plain", "application/octet-stream", "pdf"]) {
      const res = await operator("PUT", path, pdfBytes(), { "content-type": type });
      const body = await expectJson<ErrorBody>(res, 415);
      expect(body.error.type).toBe("UNSUPPORTED_MEDIA_TYPE_ERROR");
    }
    const none = await operator("PUT", path, pdfBytes());
    expect(none.status).toBe(415);
  });

  it("answers 400 for a body that does not start with %PDF-", async () => {
    const f = await seedAccount({ statements: 1 });
    const path = `/statements/${f.accountId}_st_001/pdf`;
    for (const body of ["", "%PDF", "%pdf-1.4\n", " %PDF-1.4\n", "<html></html>"]) {
      const res = await operator("PUT", path, body, pdfHeaders);
      const error = await expectJson<ErrorBody>(res, 400);
      expect(error.error.type, JSON.stringify(body)).toBe("INVALID_REQUEST_ERROR");
    }
    const list = await listStatements(f);
    expect(list.data[0]).not.toHaveProperty("pdf_url");
  });

  it("accepts exactly 20 MiB and answers 413 for 20 MiB + 1 byte", async () => {
    const f = await seedAccount({ statements: 1 });
    const path = `/statements/${f.accountId}_st_001/pdf`;
    const big = new Uint8Array(20 * MIB + 1);
    big.set(pdfBytes());
    const tooLarge = await operator("PUT", path, big, pdfHeaders);
    expect((await expectJson<ErrorBody>(tooLarge, 413)).error.type).toBe("PAYLOAD_TOO_LARGE_ERROR");
    const list = await listStatements(f);
    expect(list.data[0]).not.toHaveProperty("pdf_url");

    const exact = await operator("PUT", path, big.subarray(0, 20 * MIB), pdfHeaders);
    expect(exact.status).toBe(204);
  });

  it("answers 413 for an oversized body sent without a Content-Length", async () => {
    const f = await seedAccount({ statements: 1 });
    const chunk = new Uint8Array(MIB);
    chunk.set(pdfBytes());
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 20 * MIB) return controller.close();
        const size = sent + MIB > 20 * MIB ? 20 * MIB + 1 - sent : MIB;
        controller.enqueue(chunk.slice(0, size));
        sent += size;
      },
    });
    const upload = new Request(`${BASE}/operator/v1/statements/${f.accountId}_st_001/pdf`, {
      method: "PUT",
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/pdf" },
      body: stream,
    });
    expect(upload.headers.get("content-length")).toBeNull();
    const res = await exports.default.fetch(upload);
    expect((await expectJson<ErrorBody>(res, 413)).error.type).toBe("PAYLOAD_TOO_LARGE_ERROR");
  });

  it("answers 404 for an unknown statement", async () => {
    const res = await operator("PUT", `/statements/${uniqueId("st")}/pdf`, pdfBytes(), pdfHeaders);
    expect((await expectJson<ErrorBody>(res, 404)).error.type).toBe("NOT_FOUND_ERROR");
  });
});

describe("operator hide", () => {
  it("hides a statement from every later read, idempotently, with 204", async () => {
    const f = await seedAccount({ statements: 3 });
    const hiddenId = `${f.accountId}_st_002`;
    const first = await operator("POST", `/statements/${hiddenId}/hide`);
    expect(first.status).toBe(204);
    expect(await first.text()).toBe("");
    expect((await operator("POST", `/statements/${hiddenId}/hide`)).status).toBe(204);

    for (const version of ALL_VERSIONS) {
      const list = await listStatements(f, version);
      expect(list.data.map((s) => s.statement_id)).toEqual([
        `${f.accountId}_st_003`,
        `${f.accountId}_st_001`,
      ]);
    }
  });

  it("stays hidden when the same statement is imported again", async () => {
    const f = await seedAccount({ statements: 2 });
    await operator("POST", `/statements/${f.accountId}_st_002/hide`);
    await importData({ statements: [monthlyStatement(f.accountId, 2)] });
    const list = await listStatements(f);
    expect(list.data.map((s) => s.statement_id)).toEqual([`${f.accountId}_st_001`]);
  });

  it("turns a PDF link issued before hiding into a 404", async () => {
    const f = await seedAccount({ statements: 1 });
    const statementId = `${f.accountId}_st_001`;
    await operator("PUT", `/statements/${statementId}/pdf`, pdfBytes(), {
      "content-type": "application/pdf",
    });
    const list = await listStatements(f);
    const link = linkPath(list.data[0]);
    expect((await request(link)).status).toBe(200);

    expect((await operator("POST", `/statements/${statementId}/hide`)).status).toBe(204);
    const gone = await request(link);
    expect(gone.status).toBe(404);
    expect(gone.headers.get("content-type")).not.toBe("application/pdf");
    expect((await request(link, { method: "HEAD" })).status).toBe(404);
  });

  it("answers 404 for an unknown statement", async () => {
    const res = await operator("POST", `/statements/${uniqueId("st")}/hide`);
    expect((await expectJson<ErrorBody>(res, 404)).error.type).toBe("NOT_FOUND_ERROR");
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
