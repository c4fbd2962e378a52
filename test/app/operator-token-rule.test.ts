// A deployed Worker refuses to serve the operator API with a token shorter than 32 characters:
// `DEPLOYMENT = "production"`, which only `npm run deploy` sets, makes such a token count as none
// (404 everywhere, as without a token) and the Worker logs why, never the token. Without the
// marker, as in every local run, the short development token keeps working.
import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchWithEnv } from "../support/app-env";
import { OPERATOR_TOKEN } from "../support/worker";

const LONG_TOKEN = "a-deployment-token-of-forty-characters!!";

function call(token: string, env: Record<string, unknown>) {
  return fetchWithEnv(
    "/operator/v1/partners/nobody/audit",
    { headers: { authorization: `Bearer ${token}` } },
    env,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the operator token of a deployment", () => {
  it("keeps a short token working where the marker is not set, as in local runs", async () => {
    expect(OPERATOR_TOKEN.length).toBeLessThan(32);
    // 404 for the partner, past the token: the API is served.
    const res = await call(OPERATOR_TOKEN, { OPERATOR_TOKEN, DEPLOYMENT: undefined });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("nobody");
  });

  it("answers 404 as without a token, and logs why without the token, when deployed with a short one", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const none = await call(OPERATOR_TOKEN, { OPERATOR_TOKEN: undefined });
    const deployed = { OPERATOR_TOKEN, DEPLOYMENT: "production" };
    const right = await call(OPERATOR_TOKEN, deployed);
    const wrong = await call("wrong", deployed);
    expect(none.status).toBe(404);
    const expected = await none.text();
    for (const res of [right, wrong]) {
      expect(res.status).toBe(404);
      expect(await res.text()).toBe(expected);
    }
    const lines = errors.mock.calls.map(([line]) => String(line));
    const refusal = lines.find((line) => line.includes('"operator_api":"refused"'));
    expect(refusal).toBeDefined();
    expect(JSON.parse(refusal ?? "{}")).toMatchObject({ alert: true });
    expect(refusal).toContain(`OPERATOR_TOKEN has ${OPERATOR_TOKEN.length} characters`);
    expect(lines.join("\n")).not.toContain(OPERATOR_TOKEN);
  });

  it("serves a deployment whose token has 32 characters or more, and never takes a short previous one", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const deployed = {
      OPERATOR_TOKEN: LONG_TOKEN,
      OPERATOR_TOKEN_PREVIOUS: OPERATOR_TOKEN,
      DEPLOYMENT: "production",
    };
    expect((await call(LONG_TOKEN, deployed)).status).toBe(404);
    expect(
      (await call(LONG_TOKEN, { ...deployed, OPERATOR_TOKEN_PREVIOUS: undefined })).status,
    ).toBe(404);
    // The short previous token is not accepted in a deployment; locally it is.
    expect((await call(OPERATOR_TOKEN, deployed)).status).toBe(401);
    expect((await call(OPERATOR_TOKEN, { ...deployed, DEPLOYMENT: undefined })).status).toBe(404);
  });
});
