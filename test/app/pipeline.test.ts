// The /v2 request pipeline (CONTRACT §1): authenticate → resolve version → scope → product.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import app from "../../src/index";
import { api, expectJson, operator } from "../support/api";
import {
  ALL_VERSIONS,
  NEWEST_RELEASED,
  OLDEST,
  RELEASED_VERSIONS,
  SANDBOX_ONLY,
  versionsBefore,
  versionsWith,
} from "../support/bundle-versions";
import { createKey, seedAccount, statementsPath } from "../support/fixtures";
import { partnerDatabase, partnerShardOverride, unreachableD1 } from "../support/shards";
import { BASE, request } from "../support/worker";

const UNAUTHORIZED = {
  error: {
    type: "UNAUTHORIZED_ERROR",
    message: "Missing or invalid API key. Send it as the HTTP Basic username or as a Bearer token.",
  },
};
const WWW_AUTHENTICATE = 'Basic realm="api", charset="UTF-8", Bearer realm="api"';

/** Calls the app with a modified environment, as a deployment with other settings would. */
function fetchWithEnv(path: string, init: RequestInit, overrides: Record<string, unknown>) {
  const ctx = {
    waitUntil() {},
    passThroughOnException() {},
    props: {},
  } as unknown as ExecutionContext;
  return app.fetch(new Request(`${BASE}${path}`, init), { ...env, ...overrides }, ctx);
}

describe("authentication", () => {
  it("accepts the key as a Bearer token and as the Basic username", async () => {
    const f = await seedAccount({ statements: 1 });
    expect((await api(statementsPath(f), { key: f.key })).status).toBe(200);
    expect((await api(statementsPath(f), { key: f.key, scheme: "Basic" })).status).toBe(200);
  });

  it("ignores a Basic password and the case of the scheme name", async () => {
    const f = await seedAccount({ statements: 1 });
    for (const authorization of [
      `Basic ${btoa(`${f.key}:whatever`)}`,
      `basic ${btoa(`${f.key}:`)}`,
      `BEARER ${f.key}`,
      `bearer ${f.key}`,
    ]) {
      expect((await request(statementsPath(f), { headers: { authorization } })).status).toBe(200);
    }
  });

  it("answers the same 401 for every kind of bad credential, with no version header", async () => {
    const f = await seedAccount({ statements: 1 });
    const revoked = await createKey(f.partnerId, "sandbox", ["ACCOUNT_READ"]);
    await operator("DELETE", `/keys/${revoked.keyId}`);
    const lastChar = f.key.at(-1) === "A" ? "B" : "A";
    const wrongChecksum = `${f.key.slice(0, -1)}${lastChar}`;
    const unknown = (await createKey(f.partnerId, "sandbox", [])).apiKey.replace(
      /^sk_sandbox_/,
      "sk_live_",
    );
    const cases: (string | undefined)[] = [
      undefined,
      "",
      "Bearer",
      "Bearer ",
      `Token ${f.key}`,
      `Bearer ${f.key} extra`,
      "Basic !!!notbase64",
      `Basic ${btoa(":password-only")}`,
      `Bearer ${wrongChecksum}`,
      `Bearer ${revoked.apiKey}`,
      `Bearer ${unknown}`,
      "Bearer sk_sandbox_short",
      `Bearer ${"x".repeat(5000)}`,
    ];
    for (const authorization of cases) {
      const headers: Record<string, string> = { "x-service-version": OLDEST };
      if (authorization !== undefined) headers.authorization = authorization;
      const res = await request(statementsPath(f), { headers });
      expect(res.status, authorization).toBe(401);
      expect(await res.json()).toEqual(UNAUTHORIZED);
      expect(res.headers.get("www-authenticate")).toBe(WWW_AUTHENTICATE);
      expect(res.headers.has("x-service-version")).toBe(false);
    }
  });

  it("stores a key as the hex SHA-256 of its text, as keys stored before were", async () => {
    const f = await seedAccount({ statements: 1 });
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(f.key));
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    const db = await partnerDatabase(f.partnerId);
    const row = await db
      .prepare("SELECT key_hash FROM api_keys WHERE key_id = ?")
      .bind(f.keyId)
      .first<{ key_hash: string }>();
    expect(row?.key_hash).toBe(hex);
    expect((await api(statementsPath(f), { key: f.key })).status).toBe(200);
  });

  it("stops accepting a revoked key on the very next request", async () => {
    const f = await seedAccount({ statements: 1 });
    expect((await api(statementsPath(f), { key: f.key })).status).toBe(200);
    expect((await operator("DELETE", `/keys/${f.keyId}`)).status).toBe(204);
    expect((await api(statementsPath(f), { key: f.key })).status).toBe(401);
  });

  it("authenticates before anything else, even on unknown routes", async () => {
    const res = await request("/v2/nothing-here");
    expect(res.status).toBe(401);
  });
});

describe("version resolution", () => {
  it("uses the partner's saved version when no header is sent", async () => {
    const f = await seedAccount({ statements: 1, savedVersion: NEWEST_RELEASED });
    const res = await api(statementsPath(f), { key: f.key });
    expect(res.headers.get("x-service-version")).toBe(NEWEST_RELEASED);
  });

  it("lets the header override the saved version for one request only", async () => {
    const f = await seedAccount({ statements: 1 });
    const once = await api(statementsPath(f), { key: f.key, version: NEWEST_RELEASED });
    expect(once.headers.get("x-service-version")).toBe(NEWEST_RELEASED);
    const next = await api(statementsPath(f), { key: f.key });
    expect(next.headers.get("x-service-version")).toBe(OLDEST);
  });

  it("reads the header name case-insensitively", async () => {
    const f = await seedAccount({ statements: 1 });
    const res = await request(statementsPath(f), {
      headers: { authorization: `Bearer ${f.key}`, "X-Service-Version": NEWEST_RELEASED },
    });
    expect(res.headers.get("x-service-version")).toBe(NEWEST_RELEASED);
  });

  it("offers an unreleased version in sandbox", async () => {
    const f = await seedAccount({ statements: 1 });
    const res = await api(statementsPath(f), { key: f.key, version: SANDBOX_ONLY });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-version")).toBe(SANDBOX_ONLY);
  });

  it("refuses an unreleased version to a production key, listing the released ones", async () => {
    const f = await seedAccount({ statements: 1 });
    const { apiKey } = await createKey(f.partnerId, "production", ["ACCOUNT_READ"]);
    const res = await api(statementsPath(f), { key: apiKey, version: SANDBOX_ONLY });
    expect(await expectJson(res, 400)).toEqual({
      error: {
        type: "BAD_REQUEST_ERROR",
        message:
          `Unsupported x-service-version value ${JSON.stringify(SANDBOX_ONLY)}. ` +
          `Supported versions: ${RELEASED_VERSIONS.join(", ")}.`,
        param: "x-service-version",
      },
    });
    expect(res.headers.has("x-service-version")).toBe(false);
  });

  it.each([
    ["an unknown date", "1999-12-31"],
    ["an empty value", ""],
    ["two values", `${OLDEST}, ${NEWEST_RELEASED}`],
    ["a quoted value", `"${OLDEST}"`],
    ["another format", OLDEST.replaceAll("-", ".")],
    ["the wrong case", SANDBOX_ONLY.toUpperCase()],
  ])("refuses %s with 400 and no version header", async (_, value) => {
    const f = await seedAccount({ statements: 1 });
    const res = await request(statementsPath(f), {
      headers: { authorization: `Bearer ${f.key}`, "x-service-version": value },
    });
    const body = await expectJson<{ error: { type: string; message: string } }>(res, 400);
    expect(body.error.type).toBe("BAD_REQUEST_ERROR");
    expect(body.error.message).toContain(JSON.stringify(value));
    expect(body.error.message).toContain(ALL_VERSIONS.join(", "));
    expect(res.headers.has("x-service-version")).toBe(false);
  });

  it("quotes at most 64 characters of a rejected value", async () => {
    const f = await seedAccount({ statements: 1 });
    const res = await api(statementsPath(f), { key: f.key, version: `2025-${"9".repeat(200)}` });
    const body = await expectJson<{ error: { message: string } }>(res, 400);
    expect(body.error.message).toContain(JSON.stringify(`2025-${"9".repeat(59)}`));
    expect(body.error.message).not.toContain("9".repeat(60));
  });

  it("names the chosen version on errors from the endpoint itself", async () => {
    const f = await seedAccount({ statements: 1 });
    const cases = [
      statementsPath({ ...f, customerId: "nobody" }),
      statementsPath(f, "?limit=0"),
      "/v2/unknown-route",
    ];
    for (const path of cases) {
      const res = await api(path, { key: f.key, version: NEWEST_RELEASED });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers.get("x-service-version")).toBe(NEWEST_RELEASED);
    }
  });
});

describe("errors in every version", () => {
  it.each(versionsWith("useApiErrorEnvelopeForAllErrors"))(
    "uses the ApiError envelope for validation and not-found errors in %s",
    async (version) => {
      const f = await seedAccount({ statements: 1 });
      const invalid = await api(statementsPath(f, "?limit=0"), { key: f.key, version });
      expect(await expectJson(invalid, 400)).toEqual({
        error: {
          type: "INVALID_REQUEST_ERROR",
          message: expect.stringContaining("limit"),
          param: "limit",
          details: [expect.stringContaining("limit")],
        },
      });
      const missing = await api(statementsPath({ ...f, customerId: "nobody" }), {
        key: f.key,
        version,
      });
      expect(await expectJson(missing, 404)).toEqual({
        error: {
          type: "CUSTOMER_NOT_FOUND_ERROR",
          message: expect.any(String),
          param: "customer_id",
        },
      });
    },
  );

  it.each(versionsBefore("useApiErrorEnvelopeForAllErrors"))(
    "keeps the flat error shapes in %s",
    async (version) => {
      const f = await seedAccount({ statements: 1 });
      const invalid = await api(statementsPath(f, "?limit=0"), { key: f.key, version });
      expect(await expectJson(invalid, 400)).toMatchObject({ error: "Bad Request", status: 400 });
      const missing = await api(statementsPath({ ...f, accountId: "nothing" }), {
        key: f.key,
        version,
      });
      expect(await expectJson(missing, 404)).toMatchObject({ type: "ACCOUNT_NOT_FOUND_ERROR" });
    },
  );
});

describe("routes and cross-cutting headers", () => {
  it("answers 404 NOT_FOUND_ERROR for an unknown /v2 route after authentication", async () => {
    const f = await seedAccount();
    const res = await api("/v2/statements", { key: f.key });
    const body = await expectJson<{ error: { type: string } }>(res, 404);
    expect(body.error.type).toBe("NOT_FOUND_ERROR");
    expect(res.headers.get("x-service-version")).toBe(OLDEST);
  });

  it("puts an x-request-id on every response, and keeps a well-formed incoming one", async () => {
    const f = await seedAccount({ statements: 1 });
    const ok = await api(statementsPath(f), { key: f.key });
    expect(ok.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const unauthorized = await request(statementsPath(f));
    expect(unauthorized.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await request("/v2/x", { headers: { "x-request-id": "trace-123" } });
    expect(echoed.headers.get("x-request-id")).toBe("trace-123");
    const refused = await request("/v2/x", { headers: { "x-request-id": "bad id\twith spaces" } });
    expect(refused.headers.get("x-request-id")).not.toContain(" ");
  });

  it("answers CORS preflight without a key and exposes the version and request id", async () => {
    const res = await request("/v2/customers/c/accounts/a/statements", {
      method: "OPTIONS",
      headers: {
        origin: "https://partner.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization, x-service-version",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const allowed = (res.headers.get("access-control-allow-headers") ?? "").toLowerCase();
    for (const h of [
      "authorization",
      "content-type",
      "x-service-version",
      "x-service-merchant-key",
    ]) {
      expect(allowed).toContain(h);
    }
    const f = await seedAccount({ statements: 1 });
    const get = await request(statementsPath(f), {
      headers: { authorization: `Bearer ${f.key}`, origin: "https://partner.example" },
    });
    const exposed = (get.headers.get("access-control-expose-headers") ?? "").toLowerCase();
    for (const name of ["x-service-version", "x-request-id", "deprecation", "sunset", "link"]) {
      expect(exposed).toContain(name);
    }
  });

  it("allows only the configured origins when CORS_ALLOWED_ORIGINS lists some", async () => {
    const preflight = (origin: string) =>
      fetchWithEnv(
        "/v2/customers/c/accounts/a/statements",
        {
          method: "OPTIONS",
          headers: { origin, "access-control-request-method": "GET" },
        },
        { CORS_ALLOWED_ORIGINS: "https://a.example, https://b.example" },
      );
    const allowed = await preflight("https://b.example");
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://b.example");
    const other = await preflight("https://evil.example");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers CORS on preflights, errors and replays alike, and varies by Origin with a list", async () => {
    const preflight = await request("/v2/keys", {
      method: "OPTIONS",
      headers: { origin: "https://partner.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-max-age")).toBe("600");
    expect(preflight.headers.get("access-control-allow-methods")).toBe(
      "GET,POST,PUT,DELETE,OPTIONS",
    );
    expect(preflight.headers.get("access-control-allow-headers")).toContain("Idempotency-Key");
    expect(preflight.headers.get("vary")).toBe("Access-Control-Request-Headers");
    expect(await preflight.text()).toBe("");

    // An error is readable by the browser too: the headers are on the response onError renders.
    const denied = await request("/v2/keys", { headers: { origin: "https://partner.example" } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get("access-control-allow-origin")).toBe("*");
    expect(denied.headers.get("access-control-expose-headers")).toContain("Retry-After");
    expect(denied.headers.has("vary")).toBe(false);

    // A replayed response carries them as the first one did, with the replay marker exposed.
    const f = await seedAccount();
    const post = () =>
      api("/v2/keys", {
        key: f.key,
        method: "POST",
        headers: { origin: "https://partner.example", "Idempotency-Key": "cors-replay" },
        body: { name: "cors" },
      });
    await expectJson(await post(), 201);
    const replay = await post();
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.headers.get("access-control-allow-origin")).toBe("*");
    expect(replay.headers.get("access-control-expose-headers")).toContain("Idempotent-Replayed");

    // With a list of origins, every answer depends on Origin, so caches must key on it.
    const listed = await fetchWithEnv(
      "/v2/keys",
      { headers: { origin: "https://a.example" } },
      { CORS_ALLOWED_ORIGINS: "https://a.example, https://b.example" },
    );
    expect(listed.status).toBe(401);
    expect(listed.headers.get("access-control-allow-origin")).toBe("https://a.example");
    expect(listed.headers.get("vary")).toBe("Origin");
  });

  it("uses the configured brand word in header names", async () => {
    const f = await seedAccount({ statements: 1 });
    const res = await fetchWithEnv(
      statementsPath(f),
      { headers: { authorization: `Bearer ${f.key}`, "x-acme-version": NEWEST_RELEASED } },
      { BRAND: "acme" },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("x-acme-version")).toBe(NEWEST_RELEASED);
    expect(res.headers.has("x-service-version")).toBe(false);
  });

  it("answers 503 with Retry-After when storage is unavailable", async () => {
    const f = await seedAccount({ statements: 1 });
    const res = await fetchWithEnv(
      statementsPath(f),
      { headers: { authorization: `Bearer ${f.key}` } },
      await partnerShardOverride(f.partnerId, unreachableD1),
    );
    const body = await expectJson<{ error: { type: string; message: string } }>(res, 503);
    expect(body.error.type).toBe("SERVICE_UNAVAILABLE_ERROR");
    expect(res.headers.get("retry-after")).toBe("1");
    expect(JSON.stringify(body)).not.toContain("D1_ERROR");
  });

  it("answers 500 INTERNAL_ERROR with the request id and no internals on a bug", async () => {
    const f = await seedAccount({ statements: 2 });
    const res = await fetchWithEnv(
      statementsPath(f, "?limit=1"),
      { headers: { authorization: `Bearer ${f.key}` } },
      { SIGNING_SECRET: undefined },
    );
    const body = await expectJson<{ error: { type: string; message: string } }>(res, 500);
    expect(body.error.type).toBe("INTERNAL_ERROR");
    expect(body.error.message).toContain(res.headers.get("x-request-id") as string);
    expect(JSON.stringify(body)).not.toMatch(/at \w+ \(|SIGNING_SECRET|stack/);
  });
});
