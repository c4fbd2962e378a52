// The version engine's error, endpoint, imperative and behaviour changes: what each does to
// bodies, routes and the reference, and the mistakes it refuses when the bundle is built.
import { describe, expect, it } from "vitest";
import { bundle, bundleOf } from "../../src/bundle";
import type { VersionChange } from "../../src/versioning";
import {
  change,
  ctx,
  dated,
  endpoint,
  error,
  frozen,
  list,
  OLDEST,
  older,
  schema,
  withChange,
} from "../support/engine";
import { type Json, plain } from "../support/json";

describe("error instructions", () => {
  const forbidden = { error: { type: "FORBIDDEN_ERROR", message: "forbidden" } };
  const notFound = { error: { type: "NOT_FOUND_ERROR", message: "No route GET /x." } };

  it("rename a type inside the envelope, in bodies and in the reference", () => {
    const b = withChange(error("FORBIDDEN_ERROR").had({ type: "ACCESS_DENIED_ERROR" }));
    expect(older(b, "Error", frozen(structuredClone(forbidden)))).toEqual({
      error: { type: "ACCESS_DENIED_ERROR", message: "forbidden" },
    });
    expect(older(b, "Error", notFound)).toBe(notFound);
    const types = plain(b.schemasOf("2020-01-01")).ApiError?.properties.error.properties.type.enum;
    expect(types).toContain("ACCESS_DENIED_ERROR");
    expect(types).not.toContain("FORBIDDEN_ERROR");
  });

  it("reshape errors of some types, documented by their own schema from then on", () => {
    const b = withChange(
      error("FORBIDDEN_ERROR").had({
        schema: "ForbiddenError",
        shape: { type: "object", properties: { reason: { type: "string" } } },
        from: (body: Json, c) => ({ reason: `${body.error.message} at ${c.path}` }),
      }),
    );
    expect(older(b, "Error", forbidden)).toEqual({ reason: "forbidden at /v2/x" });
    expect(older(b, "Error", notFound)).toBe(notFound);
    expect(b.errorSchemasOf("2020-01-01").FORBIDDEN_ERROR).toBe("ForbiddenError");
    expect(b.errorSchemasOf("2027-01-01").FORBIDDEN_ERROR).toBe("ApiError");
    const schemas = plain(b.schemasOf("2020-01-01"));
    expect(schemas.ForbiddenError).toEqual({
      type: "object",
      properties: { reason: { type: "string" } },
    });
    expect(schemas.ApiError?.properties.error.properties.type.enum).not.toContain(
      "FORBIDDEN_ERROR",
    );
  });

  it("hand an older change the body as the newer change left it, and nothing else", () => {
    const b = bundleOf([
      dated("2027-01-01", [
        {
          name: "flattenForbidden",
          description: "d",
          instructions: [
            error("FORBIDDEN_ERROR").had({
              schema: "ForbiddenError",
              shape: { type: "object", properties: { type: {}, message: {} } },
              from: ({ error }: Json) => ({ type: error.type, message: error.message }),
            }),
          ],
        },
      ]),
      dated("2026-01-01", [
        {
          name: "renameForbiddenMessage",
          description: "d",
          instructions: [
            error("FORBIDDEN_ERROR").had({
              schema: "ForbiddenError",
              shape: { type: "object", properties: { reason: {} } },
              from: (flat: Json) => ({ reason: flat.message }),
            }),
            error("NOT_FOUND_ERROR").had({ type: "NO_SUCH_ROUTE" }),
          ],
        },
      ]),
      OLDEST,
    ]);
    expect(b.transform("2026-01-01", "Error", forbidden, ctx)).toEqual(forbidden.error);
    expect(b.transform("2020-01-01", "Error", forbidden, ctx)).toEqual({ reason: "forbidden" });
    expect(plain(b.transform("2020-01-01", "Error", notFound, ctx)).error.type).toBe(
      "NO_SUCH_ROUTE",
    );
    expect(() =>
      bundleOf([
        dated("2027-01-01", [
          {
            name: "flattenForbidden",
            description: "d",
            instructions: b.versions[0]?.changes[0]?.instructions,
          },
        ]),
        dated("2026-01-01", [
          {
            name: "renameForbidden",
            description: "d",
            instructions: [error("FORBIDDEN_ERROR").had({ type: "X" })],
          },
        ]),
        OLDEST,
      ]),
    ).toThrow(/not in an error envelope/);
  });

  it("refuse a type that does not exist at their point", () => {
    expect(() => withChange(error("NO_SUCH_ERROR").had({ type: "X" }))).toThrow(/no error type/);
    expect(() => withChange(error("FORBIDDEN_ERROR").had({}))).toThrow(/older type/);
  });
});

describe("endpoint instructions", () => {
  it("hide a new route from older versions, and a removed one from newer versions", () => {
    const b = bundleOf([
      dated("2027-01-01", [
        {
          name: "addKeys",
          description: "d",
          instructions: [endpoint("POST", "/v2/keys").didntExist],
        },
      ]),
      dated("2026-01-01", [
        {
          name: "removeOrders",
          description: "d",
          instructions: [endpoint("GET", "/v2/orders").existed],
        },
      ]),
      OLDEST,
    ]);
    const exists = (version: string, method: string, path: string) =>
      b.routeExists(version, method, path);
    expect([
      exists("2027-01-01", "POST", "/v2/keys"),
      exists("2026-01-01", "POST", "/v2/keys"),
    ]).toEqual([true, false]);
    expect([
      exists("2027-01-01", "GET", "/v2/orders"),
      exists("2026-01-01", "GET", "/v2/orders"),
    ]).toEqual([false, false]);
    expect(exists("2020-01-01", "GET", "/v2/orders")).toBe(true);
    expect(b.touchedBy(b.versions[0]?.changes[0] as VersionChange)).toEqual(["POST /v2/keys"]);
  });

  it("refuse a route the table does not have, or one already gone", () => {
    const gone = endpoint("POST", "/v2/keys").didntExist;
    expect(() => withChange(endpoint("GET", "/v2/nothing").didntExist)).toThrow(/no such route/);
    expect(() => withChange(gone, gone)).toThrow(/does not exist/);
  });
});

describe("imperative changes", () => {
  it("run after the change's instructions, on bodies, requests and the reference", () => {
    const b = bundleOf([
      dated("2027-01-01", [
        {
          name: "renameFeesToCharges",
          description: "d",
          instructions: [schema("Statement").field("fees").had({ name: "charges" })],
          resources: ["StatementList", "CreateKeyRequest"],
          // Sees the body the instruction left: `charges`, not `fees`.
          response: {
            StatementList: (list: Json) => ({ ...list, count: list.data[0].charges }),
          },
          request: { CreateKeyRequest: ({ label, ...rest }: Json) => ({ ...rest, name: label }) },
          schema: (schemas) => {
            (schemas.StatementList as Json).properties.count = { type: "integer" };
          },
        },
      ]),
      OLDEST,
    ]);
    expect(older(b, "StatementList", list).count).toBe(5);
    expect(b.upgradeRequest("2020-01-01", "CreateKeyRequest", { label: "k" })).toEqual({
      name: "k",
    });
    expect(plain(b.schemasOf("2020-01-01")).StatementList?.properties.count).toEqual({
      type: "integer",
    });
    expect(plain(b.schemasOf("2027-01-01")).StatementList?.properties.count).toBeUndefined();
    expect(b.touchedBy(b.versions[0]?.changes[0] as VersionChange)).toEqual([
      "StatementList",
      "CreateKeyRequest",
      "Statement",
      "Event",
      "EventList",
    ]);
  });
});

describe("behaviour changes", () => {
  it("are asked about by change, never by comparing dates", () => {
    const reject = change("rejectUnknownQueryParameters");
    const b = bundleOf([dated("2027-01-01", [reject]), dated("2026-01-01"), OLDEST]);
    expect(b.isApplied("2027-01-01", reject)).toBe(true);
    expect(b.isApplied("2026-01-01", reject)).toBe(false);
    expect(() => bundle.isApplied("2027-01-01", reject)).toThrow(/side-effect/);
    expect(() => b.isApplied("1999-01-01", reject)).toThrow(/unknown version/);
  });
});
