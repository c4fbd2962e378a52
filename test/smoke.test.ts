import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

describe("smoke", () => {
  it("answers 401 without a key", async () => {
    const res = await exports.default.fetch("http://api.test/v2/customers/c/accounts/a/statements");
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { type: "UNAUTHORIZED_ERROR" } });
  });
});
