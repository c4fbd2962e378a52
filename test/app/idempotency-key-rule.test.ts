// What an Idempotency-Key may be, said once: the 400's message, every version's reference, the
// tour and the integration guide state the same rule, and the service accepts exactly what it
// states.
import { describe, expect, it } from "vitest";
import guide from "../../docs/partner-integration.md?raw";
import tour from "../../docs/tour.md?raw";
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_RULE } from "../../src/domain/idempotency";
import { api, expectJson } from "../support/api";
import { ALL_VERSIONS } from "../support/bundle-versions";
import { seedAccount } from "../support/fixtures";
import { request } from "../support/worker";

const PRINTABLE = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i));

function createKeyWith(key: string, idempotencyKey: string) {
  return api("/v2/keys", {
    key,
    method: "POST",
    version: "latest",
    headers: { "Idempotency-Key": idempotencyKey },
  });
}

describe("the Idempotency-Key rule", () => {
  it.each([
    ["every printable ASCII character but space", PRINTABLE.join("")],
    ["one character", "!"],
    ["255 characters", `${PRINTABLE.join("")}${"~".repeat(255 - PRINTABLE.length)}`],
    ["a UUID", "5f1d2c9e-7b1a-4c3e-9f0a-2d6b8e4c1a7f"],
  ])("accepts %s", async (_, idempotencyKey) => {
    const f = await seedAccount();
    const first = await createKeyWith(f.key, idempotencyKey);
    const created = await expectJson(first, 201);
    const again = await createKeyWith(f.key, idempotencyKey);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await expectJson(again, 201)).toEqual(created);
  });

  it.each([
    ["empty", "", "it is empty"],
    ["256 characters long", "k".repeat(256), "it has 256 characters"],
    ["holding a space", "two words", "character 4 is a space"],
    // What curl sends for `5f1d…`: the UTF-8 bytes of the ellipsis, one header byte each.
    ["holding a non-ASCII character", "5f1d\u00e2\u0080\u00a6", "character 5 is not ASCII"],
    ["holding a tab", "a\tb", "character 2 is a control character"],
    ["holding DEL", "a\u007fb", "character 2 is a control character"],
  ])("refuses a key %s, stating the rule and what broke it", async (_, idempotencyKey, fault) => {
    const f = await seedAccount();
    const res = await createKeyWith(f.key, idempotencyKey);
    expect(await expectJson(res, 400)).toEqual({
      error: {
        type: "INVALID_REQUEST_ERROR",
        message: `Idempotency-Key must be ${IDEMPOTENCY_KEY_RULE}; ${fault}. A UUID is best.`,
        param: "Idempotency-Key",
        details: [`Idempotency-Key must be ${IDEMPOTENCY_KEY_RULE}; ${fault}. A UUID is best.`],
      },
    });
  });

  it("is the rule every version's reference states and patterns", async () => {
    for (const version of ALL_VERSIONS) {
      const res = await request(`/openapi/${version}.json`);
      const document = await expectJson<{
        components: {
          parameters: { IdempotencyKey: { description: string; schema: { pattern: string } } };
        };
      }>(res, 200);
      const parameter = document.components.parameters.IdempotencyKey;
      expect(parameter.description, version).toContain(`A key is ${IDEMPOTENCY_KEY_RULE};`);
      expect(parameter.schema.pattern).toBe(IDEMPOTENCY_KEY_PATTERN);
      const pattern = new RegExp(parameter.schema.pattern);
      expect(pattern.test(PRINTABLE.join(""))).toBe(true);
      expect(pattern.test("two words")).toBe(false);
    }
  });

  it("is the rule the tour and the integration guide state", () => {
    for (const doc of [tour, guide]) {
      expect(doc.replace(/\s+/g, " ")).toContain(`\`Idempotency-Key\`: ${IDEMPOTENCY_KEY_RULE}`);
    }
  });
});
