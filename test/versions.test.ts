// The version bundle: its invariants, what each declarative instruction does to bodies, requests,
// routes and the reference, and the order in which changes apply.
import { describe, expect, it } from "vitest";
import { bundle, bundleOf } from "../src/canonical/bundle";
import {
  type ApiVersion,
  checkBundle,
  type Instruction,
  instructionsFor,
  type Json,
  UnknownRequestField,
  type VersionChange,
  type Vocabulary,
} from "../src/versioning";
import { VERSIONS } from "../versions";
import { versionsBefore, versionsWith } from "./bundle-versions";

// The engine's own checks, with names the type checker does not know: what a misspelt name
// would meet at start-up if it got past the type checker (see typed-instructions.ts).
const { schema, error, endpoint } = instructionsFor<Vocabulary>();

const ctx = { path: "/v2/x", status: 200, timestamp: "2026-11-02T10:00:00.000Z" };

const statement = {
  statement_id: "st_1",
  customer_id: "cus_1",
  account_id: "acc_1",
  as_of: "2026-11-02T10:00:00.000Z",
  period_end_date: "2026-10-31T23:59:59.000Z",
  pdf: { url: "https://api.test/files/st_1", expires_at: "2026-11-02T11:00:00.000Z" },
  currency: "USD",
  statement_balance: 1200,
  fees: 5,
  overdue_amount: 0,
};
const list = { data: [statement], has_more: false };

const change = (name: string, extra: Partial<VersionChange> = {}): VersionChange => ({
  name,
  description: `${name} description`,
  sideEffects: true,
  ...extra,
});
const dated = (id: string, changes: VersionChange[] = []): ApiVersion => ({
  id,
  released: true,
  changes,
});
const OLDEST = dated("2020-01-01");
/** A bundle of one change in 2027-01-01 over an empty oldest version. */
const withChange = (...instructions: Instruction[]) =>
  bundleOf([
    dated("2027-01-01", [{ name: "changeSomething", description: "d", instructions }]),
    OLDEST,
  ]);
const older = (b: ReturnType<typeof withChange>, resource: "StatementList" | "Error", body: Json) =>
  b.transform("2020-01-01", resource, body, ctx);

/** Freezes a body deeply: a transform that mutated its input would throw. */
function frozen<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) frozen(child);
    Object.freeze(value);
  }
  return value;
}

describe("bundle invariants", () => {
  it("hold for the bundle the service runs", () => {
    expect(() => checkBundle(VERSIONS)).not.toThrow();
    expect(VERSIONS.at(-1)?.changes).toEqual([]);
    expect(bundle.newestReleased).toBe(VERSIONS.find((v) => v.released)?.id);
  });

  it("offer unreleased versions to sandbox keys only", () => {
    const all = VERSIONS.map((v) => v.id);
    const released = VERSIONS.filter((v) => v.released).map((v) => v.id);
    expect(bundle.supported("sandbox")).toEqual(all);
    expect(bundle.supported("production")).toEqual(released);
    for (const v of VERSIONS) expect(bundle.isSupported(v.id, "production")).toBe(v.released);
  });

  const latest = { id: "latest", released: false, changes: [] };
  it.each([
    ["a version listed twice", [dated("2026-01-01"), dated("2026-01-01")], /twice/],
    ["dated versions out of order", [dated("2025-01-01"), dated("2026-01-01")], /ordered/],
    ["latest anywhere but first", [dated("2026-01-01"), latest, OLDEST], /latest/],
    ["changes on the oldest version", [dated("2026-01-01", [change("addX")])], /oldest/],
    ["a released latest", [{ ...latest, released: true }, OLDEST], /latest/],
    [
      "an unreleased dated version",
      [{ ...dated("2027-01-01"), released: false }, OLDEST],
      /released/,
    ],
    ["a day that does not exist", [dated("2026-02-30"), OLDEST], /2026-02-30/],
    ["a name that is not verb-first", [dated("2027-01-01", [change("pdf")]), OLDEST], /verb-first/],
    [
      "a change that changes nothing",
      [dated("2027-01-01", [change("addX", { sideEffects: false })]), OLDEST],
      /changes nothing/,
    ],
    [
      "a transformer for an unlisted resource",
      [dated("2027-01-01", [change("renameX", { response: { Account: (b: Json) => b } })]), OLDEST],
      /Account/,
    ],
  ] as const)("rejects %s", (_, versions, message) => {
    expect(() => checkBundle(versions as readonly ApiVersion[])).toThrow(message);
  });

  it("rejects a change that belongs to two versions", () => {
    const twice = change("renameX");
    expect(() =>
      checkBundle([dated("2027-01-01", [twice]), dated("2026-01-01", [twice]), OLDEST]),
    ).toThrow(/two versions/);
  });

  it.each([
    ["latest", [{ ...latest, deprecated: { date: "2026-01-01" } }, dated("2026-01-01"), OLDEST]],
    [
      "the newest released version",
      [{ ...dated("2026-01-01"), deprecated: { date: "2026-01-01" } }, OLDEST],
    ],
    [
      "a deprecation date that is not a day",
      [dated("2026-01-01"), { ...OLDEST, deprecated: { date: "soon" } }],
    ],
    [
      "a sunset before the deprecation",
      [
        dated("2026-01-01"),
        { ...OLDEST, deprecated: { date: "2026-06-01", sunset: "2026-05-01" } },
      ],
    ],
  ] as const)("refuses to deprecate %s", (_, versions) => {
    expect(() => checkBundle(versions as readonly ApiVersion[])).toThrow();
  });
});

describe("field instructions", () => {
  it("rename a field in place, in every body holding the schema, without touching the input", () => {
    const b = withChange(
      schema("Statement").field("overdue_amount").had({ name: "amount_overdue" }),
    );
    const out = older(b, "StatementList", frozen(structuredClone(list)));
    expect(Object.keys(out.data[0]).slice(-2)).toEqual(["fees", "amount_overdue"]);
    expect(b.transform("2027-01-01", "StatementList", list, ctx)).toBe(list);
    const props = Object.keys(b.schemasOf("2020-01-01").Statement?.properties);
    expect(props.indexOf("amount_overdue")).toBe(props.indexOf("fees") + 1);
    expect(props).not.toContain("overdue_amount");
  });

  it("change a field's type with its conversion, in the reference too", () => {
    const b = withChange(
      schema("Statement")
        .field("statement_balance")
        .had({ schema: { type: "string", pattern: "^-?[0-9]+$" }, toOlder: String }),
    );
    expect(older(b, "StatementList", list).data[0].statement_balance).toBe("1200");
    expect(b.schemasOf("2020-01-01").Statement?.properties.statement_balance).toMatchObject({
      type: "string",
      description: expect.stringContaining("Balance owed"),
    });
  });

  it("drop a field older versions did not have", () => {
    const b = withChange(schema("Statement").field("fees").didntExist);
    expect(older(b, "StatementList", list).data[0]).not.toHaveProperty("fees");
    expect(b.schemasOf("2020-01-01").Statement?.properties.fees).toBeUndefined();
  });

  it("bring back a removed field from what the newer body holds, where it stood", () => {
    const b = withChange(
      schema("Statement")
        .field("amount_due")
        .existedAs({
          schema: { type: "integer", format: "int64" },
          after: "statement_balance",
          from: (s: Json) => s.statement_balance,
        }),
      schema("Statement")
        .field("document_url")
        .existedAs({ schema: { type: "string" }, from: (s: Json) => s.pdf?.url }),
    );
    const [withPdf] = older(b, "StatementList", list).data;
    expect(Object.keys(withPdf)).toEqual([
      ...Object.keys(statement).slice(0, 8),
      "amount_due",
      "fees",
      "overdue_amount",
      "document_url",
    ]);
    expect(withPdf.amount_due).toBe(1200);
    const { pdf: _, statement_balance: __, ...bare } = statement;
    const [without] = older(b, "StatementList", { data: [bare], has_more: false }).data;
    expect(without).not.toHaveProperty("document_url");
    expect(Object.keys(without).indexOf("amount_due")).toBe(-1);
    expect(Object.keys(b.schemasOf("2020-01-01").Statement?.properties).at(-1)).toBe(
      "document_url",
    );
  });

  it("refuse an instruction that does not fit the schema at its point, when the bundle is built", () => {
    const built =
      (...instructions: Json[]) =>
      () =>
        withChange(...instructions);
    expect(built(schema("Statement").field("nope").had({ name: "x" }))).toThrow(/no such field/);
    expect(built(schema("Statement").field("fees").had({ name: "interest" }))).toThrow(/exists/);
    expect(
      built(
        schema("Statement")
          .field("fees")
          .had({ schema: { type: "string" } }),
      ),
    ).toThrow(/toOlder/);
    expect(
      built(
        schema("CreateKeyRequest")
          .field("name")
          .had({ schema: { type: "integer" }, toOlder: String }),
      ),
    ).toThrow(/toNewer/);
    expect(
      built(
        schema("Statement")
          .field("fees")
          .existedAs({ schema: {}, from: () => 1 }),
      ),
    ).toThrow(/exists already/);
    expect(built(schema("Nothing").field("x").didntExist)).toThrow(/no object schema/);
  });
});

describe("request bodies", () => {
  const linkRename = schema("CustomerLinkRequest")
    .field("partner_customer_id")
    .had({ name: "partner_ref" });

  it("come forward from an older version, and refuse the newer version's fields there", () => {
    const b = withChange(linkRename);
    expect(b.upgradeRequest("2020-01-01", "CustomerLinkRequest", { partner_ref: "p" })).toEqual({
      partner_customer_id: "p",
    });
    const current = { partner_customer_id: "p" };
    expect(b.upgradeRequest("2027-01-01", "CustomerLinkRequest", current)).toBe(current);
    expect(() => b.upgradeRequest("2020-01-01", "CustomerLinkRequest", current)).toThrow(
      UnknownRequestField,
    );
    expect(b.schemasOf("2020-01-01").CustomerLinkRequest?.required).toEqual(["partner_ref"]);
  });

  it("refuse a field that is new, drop one that was removed, and convert a changed type", () => {
    const b = withChange(
      schema("CreateKeyRequest").field("name").didntExist,
      schema("CustomerLinkRequest")
        .field("partner_customer_id")
        .had({
          schema: { type: "integer" },
          toOlder: Number,
          toNewer: String,
        }),
      schema("CustomerLinkRequest")
        .field("note")
        .existedAs({ schema: { type: "string" }, from: () => undefined }),
    );
    expect(() => b.upgradeRequest("2020-01-01", "CreateKeyRequest", { name: "k" })).toThrow(
      /"name"/,
    );
    expect(
      b.upgradeRequest("2020-01-01", "CustomerLinkRequest", { partner_customer_id: 7, note: "x" }),
    ).toEqual({ partner_customer_id: "7" });
  });

  it("run through the changes oldest first, each seeing the shape just older than its own", () => {
    const b = bundleOf([
      dated("2027-01-01", [
        { name: "renameRefToId", description: "d", instructions: [linkRename] },
      ]),
      dated("2026-01-01", [
        {
          name: "renameCrmIdToRef",
          description: "d",
          instructions: [
            schema("CustomerLinkRequest").field("partner_ref").had({ name: "crm_id" }),
          ],
        },
      ]),
      OLDEST,
    ]);
    expect(b.upgradeRequest("2020-01-01", "CustomerLinkRequest", { crm_id: "c" })).toEqual({
      partner_customer_id: "c",
    });
    expect(b.upgradeRequest("2026-01-01", "CustomerLinkRequest", { partner_ref: "c" })).toEqual({
      partner_customer_id: "c",
    });
    expect(b.schemasOf("2020-01-01").CustomerLinkRequest?.required).toEqual(["crm_id"]);
  });
});

describe("error instructions", () => {
  const forbidden = { error: { type: "FORBIDDEN_ERROR", message: "forbidden" } };
  const notFound = { error: { type: "NOT_FOUND_ERROR", message: "No route GET /x." } };

  it("rename a type inside the envelope, in bodies and in the reference", () => {
    const b = withChange(error("FORBIDDEN_ERROR").had({ type: "ACCESS_DENIED_ERROR" }));
    expect(older(b, "Error", frozen(structuredClone(forbidden)))).toEqual({
      error: { type: "ACCESS_DENIED_ERROR", message: "forbidden" },
    });
    expect(older(b, "Error", notFound)).toBe(notFound);
    const types = b.schemasOf("2020-01-01").ApiError?.properties.error.properties.type.enum;
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
    const schemas = b.schemasOf("2020-01-01");
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
    expect(b.transform("2020-01-01", "Error", notFound, ctx).error.type).toBe("NO_SUCH_ROUTE");
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
    expect(b.schemasOf("2020-01-01").StatementList?.properties.count).toEqual({ type: "integer" });
    expect(b.schemasOf("2027-01-01").StatementList?.properties.count).toBeUndefined();
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

describe("the service's bundle", () => {
  it("serves pdf_url in place of the pdf object to versions before the change", () => {
    for (const version of versionsBefore("replacePdfUrlWithPdfObject")) {
      const [item] = bundle.transform(version, "StatementList", list, ctx).data;
      expect(Object.keys(item)[5]).toBe("pdf_url");
      expect(item.pdf_url).toBe(statement.pdf.url);
    }
    for (const version of versionsWith("replacePdfUrlWithPdfObject")) {
      expect(bundle.transform(version, "StatementList", list, ctx)).toBe(list);
    }
  });

  it("serves the flat validation and not-found errors to versions before the envelope", () => {
    const invalid = {
      error: { type: "INVALID_REQUEST_ERROR", message: "bad", details: ["bad limit"] },
    };
    const missing = {
      error: { type: "ACCOUNT_NOT_FOUND_ERROR", message: "no", param: "account_id" },
    };
    for (const version of versionsBefore("useApiErrorEnvelopeForAllErrors")) {
      expect(bundle.transform(version, "Error", invalid, { ...ctx, status: 400 })).toEqual({
        path: "/v2/x",
        details: ["bad limit"],
        error: "Bad Request",
        status: 400,
        timestamp: ctx.timestamp,
      });
      expect(bundle.transform(version, "Error", missing, ctx)).toEqual(missing.error);
    }
  });
});
