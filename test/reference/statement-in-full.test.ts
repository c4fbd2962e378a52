// The reference of every version for the statement in full (CONTRACT §9): the two new routes and
// the statement's new optional fields in every version (unversioned additions, SPEC Versioning 2);
// the statement-not-found error in the shape of each version; and `statement.restated` as an
// event type and a webhook only from the version that introduced it, every older version's Event
// as before. The versions are told apart by the bundle's own changes.
import { describe, expect, it } from "vitest";
import { bundle } from "../../src/bundle";
import { EVENT_TYPES } from "../../src/domain/event";
import { expectJson } from "../support/api";
import { ALL_VERSIONS, versionsBefore, versionsWith } from "../support/bundle-versions";
import type { Json } from "../support/json";
import { ENVELOPE, FLAT_ERRORS } from "../support/reference-versions";
import { request } from "../support/worker";

const RESTATED = "announceRestatementsAsStatementRestated";
const OLDER_EVENT_TYPES = ["statement.created", "statement.pdf_available", "statement.hidden"];

const STATEMENTS = "/v2/customers/{customer_id}/accounts/{account_id}/statements";
const ONE = `${STATEMENTS}/{statement_id}`;
const LINE_ITEMS = `${ONE}/line_items`;

async function documentOf(version: string, environment = "sandbox"): Promise<Json> {
  const query = environment === "sandbox" ? "" : `?environment=${environment}`;
  return expectJson(await request(`/openapi/${version}.json${query}`), 200);
}

/** Every version a key of each environment may read the reference of. */
const REFERENCES = ALL_VERSIONS.flatMap((version) =>
  (["sandbox", "production"] as const)
    .filter((environment) => bundle.isSupported(version, environment))
    .map((environment) => [version, environment] as const),
);

describe("the statement in full, in every version's reference", () => {
  it.each(REFERENCES)(
    "documents one statement and its line items in %s (%s)",
    async (version, environment) => {
      const doc = await documentOf(version, environment);
      const one = doc.paths[ONE]?.get;
      const items = doc.paths[LINE_ITEMS]?.get;
      expect(one.operationId).toBe("retrieveStatement");
      expect(items.operationId).toBe("listStatementLineItems");
      for (const op of [one, items]) {
        expect(op["x-required-scope"]).toBe("ACCOUNT_READ");
        expect(Object.keys(op.responses)).toEqual([
          "200",
          "400",
          "401",
          "403",
          "404",
          "429",
          "500",
          "503",
        ]);
        expect(op.responses["404"]).toEqual({ $ref: "#/components/responses/StatementNotFound" });
        expect(op.parameters.slice(0, 3).map((p: Json) => p.name)).toEqual([
          "customer_id",
          "account_id",
          "statement_id",
        ]);
      }
      expect(one.responses["200"].content["application/json"].schema).toEqual({
        $ref: "#/components/schemas/Statement",
      });
      expect(items.parameters.slice(3, 6).map((p: Json) => p.name)).toEqual([
        "limit",
        "starting_after",
        "type",
      ]);
      expect(items.responses["200"].content["application/json"].schema).toEqual({
        $ref: "#/components/schemas/LineItemList",
      });
      const { schemas } = doc.components;
      expect(Object.keys(schemas.LineItem.properties)).toEqual([
        "line_item_id",
        "type",
        "posted_at",
        "transaction_date",
        "description",
        "amount",
        "merchant",
        "original_amount",
        "original_currency",
        "card_last4",
      ]);
      expect(schemas.LineItem.properties.type.enum).toEqual([
        "PURCHASE",
        "PAYMENT",
        "CREDIT",
        "REFUND",
        "INTEREST",
        "FEE",
      ]);
      // The statement's new fields are optional and last, so a statement without them reads as before.
      const statement = schemas.Statement;
      expect(Object.keys(statement.properties).slice(-5)).toEqual([
        "interest_rates",
        "year_to_date",
        "restated_by",
        "restates",
        "rewards",
      ]);
      expect(statement.required).toEqual(["statement_id", "customer_id", "account_id", "as_of"]);
      expect(
        statement.properties.interest_rates.items.properties.annual_percentage_rate.pattern,
      ).toBe("^(0|[1-9][0-9]{0,2})(\\.[0-9]{1,4})?$");
    },
  );

  it("documents the statement-not-found error in the shape of each version", async () => {
    for (const version of FLAT_ERRORS) {
      const { schemas, responses } = (await documentOf(version)).components;
      expect(schemas.StatementNotFoundError.required).toEqual(["type", "message"]);
      expect(schemas.StatementNotFoundError.properties.type.enum).toEqual([
        "STATEMENT_NOT_FOUND_ERROR",
      ]);
      // The customer's and the account's not-found errors are as they were.
      expect(schemas.CustomerNotFoundError.properties.type.enum).toEqual([
        "CUSTOMER_NOT_FOUND_ERROR",
        "ACCOUNT_NOT_FOUND_ERROR",
      ]);
      expect(responses.StatementNotFound.content["application/json"].schema).toEqual({
        anyOf: [
          { $ref: "#/components/schemas/CustomerNotFoundError" },
          { $ref: "#/components/schemas/StatementNotFoundError" },
        ],
      });
    }
    const { schemas } = (await documentOf(ENVELOPE)).components;
    expect(schemas.StatementNotFoundError.required).toEqual(["error"]);
    expect(schemas.StatementNotFoundError.properties.error.properties.type.enum).toEqual([
      "STATEMENT_NOT_FOUND_ERROR",
    ]);
  });

  it("names statement.restated only from the version that introduced it", async () => {
    const newer = versionsWith(RESTATED);
    const older = versionsBefore(RESTATED);
    expect(newer.length + older.length).toBe(ALL_VERSIONS.length);
    expect(older.length).toBeGreaterThan(0);
    for (const version of ALL_VERSIONS) {
      const doc = await documentOf(version);
      const types = doc.components.schemas.Event.properties.type.enum;
      if (newer.includes(version)) {
        expect(types, version).toEqual([...EVENT_TYPES]);
        expect(Object.keys(doc.webhooks), version).toEqual([...EVENT_TYPES]);
      } else {
        expect(types, version).toEqual(OLDER_EVENT_TYPES);
        expect(Object.keys(doc.webhooks), version).toEqual(OLDER_EVENT_TYPES);
      }
    }
  });

  it("lists the version that introduced statement.restated in the changelog", async () => {
    const introducing = bundle.versions.find((v) => v.changes.some((c) => c.name === RESTATED));
    const changelog = await expectJson<Json>(await request("/changelog"), 200);
    const entry = changelog.versions.find((v: Json) =>
      v.changes.some((c: Json) => c.name === RESTATED),
    );
    expect(entry.version).toBe(introducing?.id);
    expect(bundle.versionOf(entry.version)?.released).toBe(true);
    // A new partner saves the newest released version, which has it.
    expect(versionsWith(RESTATED)).toContain(bundle.newestReleased);
  });
});
