import { describe, expect, it } from "vitest";
import { api, type ErrorBody, expectJson, operator, type StatementList } from "../support/api";
import { NEWEST_RELEASED, OLDEST, SANDBOX_ONLY } from "../support/bundle-versions";
import { createKey, seedAccount, statementsPath, uniqueId } from "../support/fixtures";

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
