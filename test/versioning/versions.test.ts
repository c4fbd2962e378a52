// The version bundle: its invariants, what body-shaping instructions do to bodies, requests and
// the reference, and the order in which changes apply.
import { describe, expect, it } from "vitest";
import { bundle, bundleOf } from "../../src/bundle";
import { type ApiVersion, checkBundle, UnknownRequestField } from "../../src/versioning";
import { VERSIONS } from "../../versions";
import { versionsBefore, versionsWith } from "../support/bundle-versions";
import {
  change,
  ctx,
  dated,
  frozen,
  list,
  OLDEST,
  older,
  schema,
  statement,
  withChange,
} from "../support/engine";
import { type Json, plain } from "../support/json";

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
    const props = Object.keys(plain(b.schemasOf("2020-01-01")).Statement?.properties);
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
    expect(plain(b.schemasOf("2020-01-01")).Statement?.properties.statement_balance).toMatchObject({
      type: "string",
      description: expect.stringContaining("Balance owed"),
    });
  });

  it("drop a field older versions did not have", () => {
    const b = withChange(schema("Statement").field("fees").didntExist);
    expect(older(b, "StatementList", list).data[0]).not.toHaveProperty("fees");
    expect(plain(b.schemasOf("2020-01-01")).Statement?.properties.fees).toBeUndefined();
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
    expect(Object.keys(plain(b.schemasOf("2020-01-01")).Statement?.properties).at(-1)).toBe(
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

describe("the service's bundle", () => {
  it("serves pdf_url in place of the pdf object to versions before the change", () => {
    for (const version of versionsBefore("replacePdfUrlWithPdfObject")) {
      const [item] = plain(bundle.transform(version, "StatementList", list, ctx)).data;
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
