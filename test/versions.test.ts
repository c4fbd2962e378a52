// The version bundle: its invariants, its transform chains, and how a new dated version plugs in.
import { describe, expect, it } from "vitest";
import { buildChangelog } from "../src/openapi/changelog";
import { buildOpenApiDocument } from "../src/openapi/document";
import {
  type ApiVersion,
  bundle,
  checkBundle,
  createBundle,
  type Json,
  VERSIONS,
  type VersionChange,
} from "../versions";
import { v2025_05_05 } from "../versions/2025-05-05";
import { v2026_10_13 } from "../versions/2026-10-13";
import { latest } from "../versions/latest";
import { replaceProperty } from "../versions/schema-edits";

const headers = { version: "x-service-version", merchantKey: "x-service-merchant-key" };
const ctx = { path: "/v2/x", status: 200, timestamp: "2026-11-02T10:00:00.000Z" };

const canonicalStatement = {
  statement_id: "st_1",
  customer_id: "cus_1",
  account_id: "acc_1",
  as_of: "2026-11-02T10:00:00.000Z",
  period_end_date: "2026-10-31T23:59:59.000Z",
  pdf: { url: "https://api.test/files/st_1", expires_at: "2026-11-02T11:00:00.000Z" },
  currency: "USD",
  overdue_amount: 0,
};
const canonicalList = { data: [canonicalStatement], has_more: false };

const change = (name: string, extra: Partial<VersionChange> = {}): VersionChange => ({
  name,
  description: `${name} description`,
  resources: ["Statement"],
  response: {},
  ...extra,
});
const dated = (id: string, changes: VersionChange[] = []): ApiVersion => ({
  id,
  released: true,
  changes,
});

describe("bundle invariants", () => {
  it("holds for the bundle the service runs", () => {
    expect(() => checkBundle(VERSIONS)).not.toThrow();
    expect(VERSIONS[0]?.id).toBe("latest");
    expect(VERSIONS.at(-1)?.id).toBe("2025-05-05");
    expect(bundle.newestReleased).toBe(VERSIONS[1]?.id);
  });

  it("offers latest to sandbox keys only", () => {
    const all = VERSIONS.map((v) => v.id);
    expect(bundle.supported("sandbox")).toEqual(all);
    expect(bundle.supported("production")).toEqual(all.slice(1));
    expect(bundle.isSupported("latest", "production")).toBe(false);
    expect(bundle.isSupported("latest", "sandbox")).toBe(true);
  });

  it("rejects a version listed twice", () => {
    expect(() => checkBundle([latest, v2026_10_13, v2026_10_13, v2025_05_05])).toThrow(/twice/);
  });

  it("rejects dated versions out of order", () => {
    expect(() => checkBundle([latest, v2025_05_05, v2026_10_13])).toThrow(/ordered/);
  });

  it("rejects latest anywhere but first", () => {
    expect(() => checkBundle([v2026_10_13, latest, v2025_05_05])).toThrow(/latest/);
  });

  it("rejects changes on the oldest version", () => {
    expect(() => checkBundle([dated("2026-01-01"), dated("2025-01-01", [change("addX")])])).toThrow(
      /oldest/,
    );
  });

  it("rejects a change that belongs to two versions", () => {
    const twice = change("renameX");
    const other = { ...change("renameY"), name: "renameX" };
    expect(() =>
      checkBundle([dated("2027-01-01", [twice]), dated("2026-01-01", [twice]), v2025_05_05]),
    ).toThrow(/two versions/);
    expect(() =>
      checkBundle([dated("2027-01-01", [twice]), dated("2026-01-01", [other]), v2025_05_05]),
    ).toThrow(/two versions/);
  });

  it("rejects a released latest and an unreleased dated version", () => {
    expect(() => checkBundle([{ ...latest, released: true }, v2025_05_05])).toThrow(/latest/);
    expect(() => checkBundle([{ ...dated("2027-01-01"), released: false }, v2025_05_05])).toThrow(
      /released/,
    );
  });

  it("rejects a dated version that is not a calendar day", () => {
    expect(() => checkBundle([dated("2026-02-30"), v2025_05_05])).toThrow(/2026-02-30/);
    expect(() => checkBundle([dated("next"), v2025_05_05])).toThrow(/next/);
  });

  it("rejects a change that is not named verb-first or reshapes an unlisted resource", () => {
    expect(() => checkBundle([dated("2027-01-01", [change("pdf")]), v2025_05_05])).toThrow(
      /verb-first/,
    );
    const sneaky = change("renameX", { response: { Account: (b: Json) => b } });
    expect(() => checkBundle([dated("2027-01-01", [sneaky]), v2025_05_05])).toThrow(/Account/);
  });
});

describe("transform chain", () => {
  it("serves latest the canonical bodies untouched", () => {
    expect(bundle.transform("latest", "StatementList", canonicalList, ctx)).toBe(canonicalList);
  });

  it("gives released versions pdf_url in place of the pdf object, in the same position", () => {
    for (const version of ["2026-10-13", "2025-05-05"]) {
      const list = bundle.transform(version, "StatementList", canonicalList, ctx);
      expect(Object.keys(list.data[0])).toEqual([
        "statement_id",
        "customer_id",
        "account_id",
        "as_of",
        "period_end_date",
        "pdf_url",
        "currency",
        "overdue_amount",
      ]);
      expect(list.data[0].pdf_url).toBe(canonicalStatement.pdf.url);
    }
    expect(canonicalList.data[0]).toHaveProperty("pdf");
  });

  it("reshapes enveloped validation and not-found errors into the released shapes", () => {
    const invalid = {
      error: { type: "INVALID_REQUEST_ERROR", message: "bad", details: ["bad limit"] },
    };
    expect(bundle.transform("2025-05-05", "Error", invalid, { ...ctx, status: 400 })).toEqual({
      path: "/v2/x",
      details: ["bad limit"],
      error: "Bad Request",
      status: 400,
      timestamp: ctx.timestamp,
    });
    const missing = {
      error: { type: "ACCOUNT_NOT_FOUND_ERROR", message: "no", param: "account_id" },
    };
    expect(bundle.transform("2026-10-13", "Error", missing, ctx)).toEqual({
      type: "ACCOUNT_NOT_FOUND_ERROR",
      message: "no",
      param: "account_id",
    });
    const forbidden = { error: { type: "FORBIDDEN_ERROR", message: "forbidden" } };
    expect(bundle.transform("2025-05-05", "Error", forbidden, ctx)).toEqual(forbidden);
  });
});

// A new dated version, 2027-03-01, between latest and 2026-10-13: built only from version modules,
// exactly as the recipe in the README ("Adding a dated version") adds one.
const renameAmountOverdueToOverdueAmount: VersionChange = {
  name: "renameAmountOverdueToOverdueAmount",
  description: "`amount_overdue` is renamed `overdue_amount`, like the other amount fields.",
  resources: ["Statement", "StatementList"],
  response: {
    Statement: renameOverdue,
    StatementList: (list: Json) => ({ ...list, data: list.data.map(renameOverdue) }),
  },
  schema(schemas) {
    const field = schemas.Statement?.properties.overdue_amount;
    replaceProperty(schemas.Statement as Json, "overdue_amount", "amount_overdue", field);
  },
};

function renameOverdue(statement: Json): Json {
  const { overdue_amount, ...rest } = statement;
  return overdue_amount === undefined ? rest : { ...rest, amount_overdue: overdue_amount };
}

const renamePartnerRefToPartnerCustomerId: VersionChange = {
  name: "renamePartnerRefToPartnerCustomerId",
  description: "The link request's `partner_ref` is renamed `partner_customer_id`.",
  resources: ["CustomerLinkRequest"],
  response: {},
  request: {
    CustomerLinkRequest: ({ partner_ref, ...rest }: Json) => ({
      ...rest,
      partner_customer_id: partner_ref,
    }),
  },
  schema(schemas) {
    const field = schemas.CustomerLinkRequest?.properties.partner_customer_id;
    replaceProperty(
      schemas.CustomerLinkRequest as Json,
      "partner_customer_id",
      "partner_ref",
      field,
    );
  },
};

const rejectUnknownQueryParameters: VersionChange = {
  name: "rejectUnknownQueryParameters",
  description: "Unknown query parameters are rejected with 400 instead of ignored.",
  resources: ["StatementList"],
  response: {},
  sideEffects: true,
};

const v2027_03_01: ApiVersion = {
  id: "2027-03-01",
  released: true,
  changes: [
    renameAmountOverdueToOverdueAmount,
    renamePartnerRefToPartnerCustomerId,
    rejectUnknownQueryParameters,
  ],
};

describe("a new dated version", () => {
  const extended = createBundle([latest, v2027_03_01, v2026_10_13, v2025_05_05]);

  it("is picked up by the transform chain of every older version, and only those", () => {
    const at = (version: string) =>
      extended.transform(version, "StatementList", canonicalList, ctx);
    expect(at("latest").data[0]).toMatchObject({ pdf: canonicalStatement.pdf, overdue_amount: 0 });
    expect(at("2027-03-01").data[0]).toMatchObject({ pdf_url: canonicalStatement.pdf.url });
    expect(at("2027-03-01").data[0]).toHaveProperty("overdue_amount", 0);
    for (const older of ["2026-10-13", "2025-05-05"]) {
      expect(at(older).data[0]).toMatchObject({ pdf_url: canonicalStatement.pdf.url });
      expect(at(older).data[0]).toHaveProperty("amount_overdue", 0);
      expect(at(older).data[0]).not.toHaveProperty("overdue_amount");
    }
    expect(extended.newestReleased).toBe("2027-03-01");
    expect(extended.supported("production")).toEqual(["2027-03-01", "2026-10-13", "2025-05-05"]);
  });

  it("brings requests sent in older versions forward to the canonical shape", () => {
    const sent = { partner_ref: "p-77" };
    expect(extended.upgradeRequest("2026-10-13", "CustomerLinkRequest", sent)).toEqual({
      partner_customer_id: "p-77",
    });
    const current = { partner_customer_id: "p-77" };
    expect(extended.upgradeRequest("2027-03-01", "CustomerLinkRequest", current)).toBe(current);
  });

  it("answers isApplied for behaviour changes by version, never by comparing dates", () => {
    expect(extended.isApplied("latest", rejectUnknownQueryParameters)).toBe(true);
    expect(extended.isApplied("2027-03-01", rejectUnknownQueryParameters)).toBe(true);
    expect(extended.isApplied("2026-10-13", rejectUnknownQueryParameters)).toBe(false);
    expect(() => extended.isApplied("latest", renameAmountOverdueToOverdueAmount)).toThrow(
      /side-effect/,
    );
    expect(() => bundle.isApplied("latest", rejectUnknownQueryParameters)).toThrow(/side-effect/);
    expect(() => extended.isApplied("1999-01-01", rejectUnknownQueryParameters)).toThrow(
      /unknown version/,
    );
  });

  it("appears in the changelog between latest and 2026-10-13, with its changes", () => {
    const { versions } = buildChangelog(extended);
    expect(versions.map((v) => v.version)).toEqual([
      "latest",
      "2027-03-01",
      "2026-10-13",
      "2025-05-05",
    ]);
    expect(versions[1]).toMatchObject({
      released: true,
      environments: ["sandbox", "production"],
      reference: "/openapi/2027-03-01.json",
    });
    expect(versions[1]?.changes).toEqual([
      {
        name: "renameAmountOverdueToOverdueAmount",
        description: renameAmountOverdueToOverdueAmount.description,
        resources: ["Statement", "StatementList"],
        behaviour: false,
      },
      expect.objectContaining({ name: "renamePartnerRefToPartnerCustomerId" }),
      expect.objectContaining({ name: "rejectUnknownQueryParameters", behaviour: true }),
    ]);
  });

  it("gets its own OpenAPI document, and older documents gain its schema edits", () => {
    const schemas = (version: string) =>
      buildOpenApiDocument(extended, version, headers).components.schemas;
    const newest = schemas("2027-03-01");
    expect(Object.keys(newest.Statement.properties)).toContain("overdue_amount");
    expect(Object.keys(newest.Statement.properties)).toContain("pdf_url");
    expect(newest.CustomerLinkRequest.required).toEqual(["partner_customer_id"]);
    const older = schemas("2026-10-13");
    expect(Object.keys(older.Statement.properties)).toContain("amount_overdue");
    expect(Object.keys(older.Statement.properties)).not.toContain("overdue_amount");
    expect(older.CustomerLinkRequest.required).toEqual(["partner_ref"]);
    expect(Object.keys(schemas("latest").Statement.properties)).toContain("pdf");
    const doc = buildOpenApiDocument(extended, "2027-03-01", headers);
    expect(doc.info.version).toBe("2027-03-01");
    expect(doc.info.description).toContain("renameAmountOverdueToOverdueAmount");
    expect(doc.components.parameters.Version.schema.enum).toContain("2027-03-01");
  });

  it("leaves the bundle the service runs unchanged", () => {
    expect(bundle.versions.map((v) => v.id)).not.toContain("2027-03-01");
    const served = buildOpenApiDocument(bundle, "2026-10-13", headers).components.schemas;
    expect(Object.keys(served.Statement.properties)).toContain("overdue_amount");
  });
});
