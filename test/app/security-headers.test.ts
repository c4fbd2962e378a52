// Headers on every response: nosniff everywhere; no-store on JSON unlocked by a credential (an API
// key, the operator token, a signed link), including the one response that shows a key's plaintext.
import { describe, expect, it } from "vitest";
import { api, operator } from "../support/api";
import { OLDEST } from "../support/bundle-versions";
import { seedAccount, statementsPath } from "../support/fixtures";
import { request } from "../support/worker";

describe("security headers", () => {
  it("sends nosniff on every kind of response", async () => {
    const f = await seedAccount({ statements: 1 });
    const responses = [
      await api(statementsPath(f), { key: f.key }),
      await api(statementsPath(f)),
      await api("/v2/nowhere", { key: f.key }),
      await request("/v2/customers", {
        method: "OPTIONS",
        headers: { origin: "https://a.example", "access-control-request-method": "GET" },
      }),
      await operator("GET", "/nowhere"),
      await request("/files/statements/x/pdf?expires=1&signature=x"),
      await request("/changelog"),
      await request(`/openapi/${OLDEST}.json`),
      await request("/docs"),
      await request("/nowhere"),
    ];
    for (const res of responses) {
      expect(res.headers.get("x-content-type-options"), res.url).toBe("nosniff");
      await res.arrayBuffer();
    }
  });

  it("forbids caching of credentialed JSON: pages, errors, new keys, operator answers", async () => {
    const f = await seedAccount({ statements: 1 });
    const responses = [
      await api(statementsPath(f), { key: f.key }),
      await api(statementsPath(f, "?limit=0"), { key: f.key }),
      await api(statementsPath(f)),
      await api("/v2/keys", { key: f.key, method: "POST", body: {} }),
      await operator("POST", `/partners/${f.partnerId}/keys`, {
        environment: "sandbox",
        scopes: [],
      }),
      await operator("GET", "/nowhere"),
      await request("/files/statements/x/pdf?expires=1&signature=x"),
    ];
    for (const res of responses) {
      expect(res.headers.get("cache-control"), `${res.url} ${res.status}`).toBe("no-store");
      await res.arrayBuffer();
    }
  });

  it("leaves the public documents' caching alone", async () => {
    const res = await request(`/openapi/${OLDEST}.json`);
    expect(res.headers.get("cache-control")).not.toBe("no-store");
  });
});
