// Rate limits: per API key on /v2, per client address on failed authentication, PDF links and the
// operator API. The suite's own limiters are lifted (vitest.config.ts); each test here swaps in a
// limiter of 3 requests per minute, so the 429 path runs against the real binding.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { policyField, RATE_LIMITS, type RatePolicy } from "../../src/app/rate-policies";
import { bundle } from "../../src/bundle";
import wranglerToml from "../../wrangler.toml?raw";
import { api, expectJson, operator } from "../support/api";
import { fetchWithEnv } from "../support/app-env";
import { OLDEST } from "../support/bundle-versions";
import { assertMatchesReference } from "../support/contract";
import { createKey, pdfBytes, seedAccount, statementsPath, uniqueId } from "../support/fixtures";
import { OPERATOR_TOKEN, request } from "../support/worker";

const TIGHT_LIMIT = 3;

/** A client address no other test uses, so each test starts with fresh counters. */
function freshIp(): string {
  const n = Math.floor(Math.random() * 2 ** 24);
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/**
 * Sends `send()` until the first 429 and returns every response. The binding's windows follow the
 * wall clock, so a window may end mid-test: the 429 must come after at least the limit's worth
 * of answers, and within two windows' worth.
 */
async function untilLimited(send: () => Promise<Response>): Promise<Response[]> {
  const responses: Response[] = [];
  for (let i = 0; i < 2 * TIGHT_LIMIT + 1; i++) {
    const res = await send();
    responses.push(res);
    if (res.status === 429) break;
  }
  const limited = responses.at(-1) as Response;
  expect(limited.status).toBe(429);
  expect(responses.length).toBeGreaterThan(TIGHT_LIMIT);
  return responses;
}

function expectRateLimitFields(res: Response, policy: RatePolicy): void {
  expect(res.headers.get("retry-after")).toBe(String(policy.period));
  expect(res.headers.get("ratelimit-policy")).toBe(
    `"${policy.name}";q=${policy.limit};w=${policy.period}`,
  );
  expect(res.headers.get("ratelimit")).toBe(`"${policy.name}";r=0;t=${policy.period}`);
}

describe("configuration", () => {
  it("states in code exactly the limits wrangler.toml configures", () => {
    const configured = [...wranglerToml.matchAll(/\[\[ratelimits\]\]([^[]*)/g)].map(
      ([, block]) => ({
        binding: /name\s*=\s*"([^"]+)"/.exec(block ?? "")?.[1],
        limit: Number(/limit\s*=\s*(\d+)/.exec(block ?? "")?.[1]),
        period: Number(/period\s*=\s*(\d+)/.exec(block ?? "")?.[1]),
      }),
    );
    const stated = Object.values(RATE_LIMITS).map(({ binding, limit, period }) => ({
      binding,
      limit,
      period,
    }));
    expect(configured).toEqual(expect.arrayContaining(stated));
    expect(configured.filter((c) => stated.some((s) => s.binding === c.binding))).toHaveLength(
      stated.length,
    );
  });
});

describe("the reference", () => {
  it("documents the 429 and its fields on every operation of every version", async () => {
    for (const version of bundle.versions.map((v) => v.id)) {
      const doc = await expectJson<{
        paths: Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>>;
        components: { responses: Record<string, { headers: Record<string, unknown> }> };
      }>(await request(`/openapi/${version}.json`), 200);
      const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
      expect(operations.length).toBeGreaterThan(0);
      for (const operation of operations) {
        expect(operation.responses["429"]).toEqual({ $ref: "#/components/responses/RateLimited" });
      }
      expect(Object.keys(doc.components.responses.RateLimited?.headers ?? {})).toEqual(
        expect.arrayContaining(["Retry-After", "RateLimit-Policy", "RateLimit"]),
      );
    }
  });
});

describe("per API key on /v2", () => {
  for (const version of bundle.versions.map((v) => v.id)) {
    it(`answers 429 in version ${version}'s error shape once a key is over its limit`, async () => {
      const f = await seedAccount({ statements: 1 });
      const path = statementsPath(f);
      const headers = { authorization: `Bearer ${f.key}`, "x-service-version": version };
      const responses = await untilLimited(() =>
        fetchWithEnv(path, { headers }, { PARTNER_KEY_RATE_LIMITER: env.TIGHT_RATE_LIMITER }),
      );
      for (const ok of responses.slice(0, -1)) {
        expect(ok.status).toBe(200);
        expect(ok.headers.get("ratelimit-policy")).toBe(
          `${policyField(RATE_LIMITS.partnerKey)}, ${policyField(RATE_LIMITS.partner)}`,
        );
      }
      const limited = responses.at(-1) as Response;
      expectRateLimitFields(limited, RATE_LIMITS.partnerKey);
      expect(limited.headers.get("x-service-version")).toBe(version);
      await assertMatchesReference(path, "GET", limited.clone());
      const body = await expectJson<{ error: { type: string; message: string } }>(limited, 429);
      expect(body.error.type).toBe("RATE_LIMITED_ERROR");
      expect(body.error.message).toContain("1000 per 10 seconds");
    });
  }

  it("lets browser clients read the rate-limit fields", async () => {
    const f = await seedAccount({ statements: 1 });
    const res = await api(statementsPath(f), {
      key: f.key,
      headers: { origin: "https://partner.example" },
    });
    const exposed = (res.headers.get("access-control-expose-headers") ?? "").toLowerCase();
    for (const name of ["retry-after", "ratelimit-policy", "ratelimit"]) {
      expect(exposed.split(/\s*,\s*/)).toContain(name);
    }
  });

  it("counts each key on its own", async () => {
    const a = await seedAccount({ statements: 1 });
    const b = await seedAccount({ statements: 1 });
    const tight = { PARTNER_KEY_RATE_LIMITER: env.TIGHT_RATE_LIMITER };
    const send = (f: typeof a) =>
      fetchWithEnv(statementsPath(f), { headers: { authorization: `Bearer ${f.key}` } }, tight);
    await untilLimited(() => send(a));
    expect((await send(b)).status).toBe(200);
  });

  it("counts every key of a partner's environment against the partner's own limit", async () => {
    const f = await seedAccount({ statements: 1 });
    const second = (await createKey(f.partnerId, "sandbox", ["ACCOUNT_READ"])).apiKey;
    const live = (await createKey(f.partnerId, "production", ["ACCOUNT_READ"])).apiKey;
    const tight = { PARTNER_RATE_LIMITER: env.TIGHT_RATE_LIMITER };
    const send = (key: string, version?: string) =>
      fetchWithEnv(
        statementsPath(f),
        {
          headers: {
            authorization: `Bearer ${key}`,
            ...(version ? { "x-service-version": version } : {}),
          },
        },
        tight,
      );
    // Alternating keys: no key is near its own limit, the partner is.
    let turn = 0;
    const responses = await untilLimited(() => send(turn++ % 2 === 0 ? f.key : second));
    for (const ok of responses.slice(0, -1)) expect(ok.status).toBe(200);
    const limited = responses.at(-1) as Response;
    expectRateLimitFields(limited, RATE_LIMITS.partner);
    expect(limited.headers.get("x-service-version")).toBe(OLDEST);
    const body = await expectJson<{ type?: string; error?: { type: string } }>(limited, 429);
    expect(body.error?.type).toBe("RATE_LIMITED_ERROR");
    // A new key of the same partner does not get around it; production is counted apart.
    const minted = (await createKey(f.partnerId, "sandbox", ["ACCOUNT_READ"])).apiKey;
    expect((await send(minted)).status).toBe(429);
    expect((await send(live)).status).not.toBe(429);
  });

  it("serves the request when the limiter itself fails", async () => {
    const f = await seedAccount({ statements: 1 });
    const broken = {
      limit: () => Promise.reject(new Error("rate limiter unavailable")),
    };
    const res = await fetchWithEnv(
      statementsPath(f),
      { headers: { authorization: `Bearer ${f.key}` } },
      {
        PARTNER_KEY_RATE_LIMITER: broken,
        PARTNER_RATE_LIMITER: broken,
        AUTH_FAILURE_RATE_LIMITER: broken,
      },
    );
    expect(res.status).toBe(200);
  });
});

describe("per client address on failed authentication", () => {
  const tight = { AUTH_FAILURE_RATE_LIMITER: env.TIGHT_RATE_LIMITER };
  const unknownKey = "sk_sandbox_0000000000000000000000000000000000";

  it("answers 401 until the limit, then 429 with no version header", async () => {
    const ip = freshIp();
    const path = "/v2/customers/cus_x/accounts/acc_x/statements";
    const responses = await untilLimited(() =>
      fetchWithEnv(
        path,
        { headers: { authorization: `Bearer ${unknownKey}`, "cf-connecting-ip": ip } },
        tight,
      ),
    );
    for (const res of responses.slice(0, -1)) expect(res.status).toBe(401);
    const limited = responses.at(-1) as Response;
    expectRateLimitFields(limited, RATE_LIMITS.authFailure);
    expect(limited.headers.has("x-service-version")).toBe(false);
    await assertMatchesReference(path, "GET", limited.clone());
    const body = await expectJson<{ error: { type: string } }>(limited, 429);
    expect(body.error.type).toBe("RATE_LIMITED_ERROR");
  });

  it("keeps serving a valid key from that address, while its bad keys meet 429", async () => {
    const f = await seedAccount({ statements: 1 });
    const ip = freshIp();
    const from = (authorization: string) =>
      fetchWithEnv(
        statementsPath(f),
        { headers: { authorization, "cf-connecting-ip": ip } },
        tight,
      );
    await untilLimited(() => from("Bearer not-a-key"));
    // The burst goes on meeting 429, whatever bad key it sends...
    for (const bad of ["Bearer not-a-key", `Bearer ${unknownKey}`, "Basic !!"]) {
      const res = await from(bad);
      expectRateLimitFields(res, RATE_LIMITS.authFailure);
      expect(res.status).toBe(429);
    }
    // ...while a valid key from the same address is served, within its own limits.
    const valid = await from(`Bearer ${f.key}`);
    expect(valid.status).toBe(200);
    expect(valid.headers.get("ratelimit-policy")).toContain('"api-key"');
    expect((await from("Bearer not-a-key")).status).toBe(429);
  });

  it("counts wrong operator tokens too", async () => {
    const ip = freshIp();
    const responses = await untilLimited(() =>
      fetchWithEnv(
        "/operator/v1/statements/st_x/hide",
        { method: "POST", headers: { authorization: "Bearer wrong", "cf-connecting-ip": ip } },
        tight,
      ),
    );
    for (const res of responses.slice(0, -1)) expect(res.status).toBe(401);
    expectRateLimitFields(responses.at(-1) as Response, RATE_LIMITS.authFailure);
    // The operator's own token from that address still works (an unknown statement: 404).
    const withToken = await fetchWithEnv(
      "/operator/v1/statements/st_x/hide",
      {
        method: "POST",
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "cf-connecting-ip": ip },
      },
      tight,
    );
    expect(withToken.status).toBe(404);
  });
});

describe("per client address on PDF links and the operator API", () => {
  it("limits downloads through PDF links", async () => {
    const f = await seedAccount({ statements: 1 });
    const id = `${f.accountId}_st_001`;
    const upload = await operator("PUT", `/statements/${id}/pdf`, pdfBytes(), {
      "content-type": "application/pdf",
    });
    expect(upload.status).toBe(204);
    const page = await expectJson<{ data: { pdf_url: string }[] }>(
      await api(statementsPath(f), { key: f.key }),
      200,
    );
    const link = String(page.data[0]?.pdf_url).replace("http://api.test", "");
    const ip = freshIp();
    const responses = await untilLimited(() =>
      fetchWithEnv(
        link,
        { headers: { "cf-connecting-ip": ip } },
        { PDF_LINK_RATE_LIMITER: env.TIGHT_RATE_LIMITER },
      ),
    );
    for (const res of responses.slice(0, -1)) expect(res.status).toBe(200);
    expectRateLimitFields(responses.at(-1) as Response, RATE_LIMITS.pdfLink);
  });

  it("limits the operator API, whatever the token", async () => {
    const ip = freshIp();
    const path = `/operator/v1/statements/${uniqueId("st")}/hide`;
    const responses = await untilLimited(() =>
      fetchWithEnv(
        path,
        {
          method: "POST",
          headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "cf-connecting-ip": ip },
        },
        { OPERATOR_RATE_LIMITER: env.TIGHT_RATE_LIMITER },
      ),
    );
    for (const res of responses.slice(0, -1)) expect(res.status).toBe(404);
    const limited = responses.at(-1) as Response;
    expectRateLimitFields(limited, RATE_LIMITS.operator);
    const body = await expectJson<{ error: { type: string } }>(limited, 429);
    expect(body.error.type).toBe("RATE_LIMITED_ERROR");
  });
});
