// The schema lists the features declare: every body a route declares is listed (else it would be
// missing from the reference, and the Worker refuses to start), and no two schemas share a name.
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { canonicalModel } from "../../src/api-model";
import {
  inReferenceOrder,
  requestBody,
  resource,
  unlistedSchemas,
} from "../../src/canonical/schemas";
import { ROUTES } from "../../src/routes";

describe("the features' schema lists", () => {
  it("list every schema a route declares, each under its own name", () => {
    const { schemas, resources, requests } = canonicalModel();
    for (const route of ROUTES) {
      for (const ref of [route.body?.schema, route.success?.schema]) {
        if (ref) expect(Object.keys(schemas), `${route.method} ${route.path}`).toContain(ref.name);
      }
    }
    expect(new Set(resources).size).toBe(resources.length);
    expect(requests.every((name) => !resources.includes(name))).toBe(true);
  });

  it("name a route's schema that no feature lists", () => {
    const Listed = resource("Listed", z.object({ id: z.string() }));
    const Forgotten = resource("Forgotten", z.object({ id: z.string() }));
    const ForgottenRequest = requestBody("ForgottenRequest", z.strictObject({}));
    expect(unlistedSchemas([Listed], [Listed, undefined, Forgotten, ForgottenRequest])).toEqual([
      "Forgotten (resource)",
      "ForgottenRequest (request)",
    ]);
  });

  it("refuse two schemas of one name, and put request bodies last", () => {
    const A = resource("A", z.object({}));
    const B = requestBody("B", z.strictObject({}));
    const C = resource("C", z.object({}));
    expect(inReferenceOrder([A, B, C]).map((ref) => ref.name)).toEqual(["A", "C", "B"]);
    expect(() => inReferenceOrder([A, resource("A", z.object({}))])).toThrow(
      "two schemas are named A",
    );
  });
});
