// Releasing a dated version touches no handler: a version module (test/fixtures/2027-03-01.ts,
// which docs/versioning.md shows as its recipe) added to a bundle makes bodies, errors, request bodies,
// routes, the changelog and the reference follow, over HTTP in the Workers runtime.
import { describe, expect, it } from "vitest";
import guide from "../../docs/versioning.md?raw";
import { bundleOf } from "../../src/bundle";
import { VERSIONS } from "../../versions";
import { api, expectJson } from "../support/api";
import { appServing } from "../support/apps";
import { changeNamed, versionsBefore, versionsWith } from "../support/bundle-versions";
import { createKey, seedAccount, statementsPath } from "../support/fixtures";
import type { Json } from "../support/json";
import {
  renameAmountOverdueToOverdueAmount,
  renamePartnerRefToPartnerCustomerId,
  v2027_03_01,
} from "./2027-03-01";
import fixtureSource from "./2027-03-01.ts?raw";

// The bundle as `npm run version:new -- 2027-03-01` leaves versions/index.ts: the new module
// between the unreleased versions and the released ones.
const bundle = bundleOf([
  ...VERSIONS.filter((v) => !v.released),
  v2027_03_01,
  ...VERSIONS.filter((v) => v.released),
]);
const fetch = appServing(bundle);
const NEW = v2027_03_01.id;
const ALL = bundle.versions.map((v) => v.id);
const WITH = (name: string) => versionsWith(name, bundle);
const BEFORE = (name: string) => versionsBefore(name, bundle);
/** The version just older than the new one. */
const OLDER = ALL[ALL.indexOf(NEW) + 1] as string;

const document = async (version: string): Promise<Json> =>
  expectJson(await fetch(new Request(`http://api.test/openapi/${version}.json`)), 200);

describe(`a bundle with ${NEW} added`, () => {
  it("is the service's bundle with one more version, in date order", () => {
    expect(ALL.filter((v) => v !== NEW)).toEqual(VERSIONS.map((v) => v.id));
    expect(bundle.newestReleased).toBe(NEW);
    expect(BEFORE("renameAmountOverdueToOverdueAmount")).toContain(OLDER);
  });

  it("renames a statement field for older versions only, in the same position", async () => {
    const f = await seedAccount({ statements: 1 });
    for (const version of ALL) {
      const res = await api(statementsPath(f), { key: f.key, version, fetch });
      const [statement] = (await expectJson<Json>(res, 200)).data;
      const keys = Object.keys(statement);
      const renamed = BEFORE("renameAmountOverdueToOverdueAmount").includes(version);
      const name = renamed ? "amount_overdue" : "overdue_amount";
      expect(statement[name], version).toBe(0);
      expect(keys, version).not.toContain(renamed ? "overdue_amount" : "amount_overdue");
      expect(keys.indexOf(name), version).toBe(keys.indexOf("fees") + 1);
    }
  });

  it("reshapes a 403 back to the flat error for older versions", async () => {
    const f = await seedAccount({ statements: 1, scopes: [] });
    for (const version of ALL) {
      const res = await api(statementsPath(f), { key: f.key, version, fetch });
      const body = await expectJson<Json>(res, 403);
      const error = { type: "FORBIDDEN_ERROR", message: "forbidden" };
      if (WITH("useApiErrorEnvelopeForForbidden").includes(version)) {
        expect(body, version).toEqual({ error });
      } else expect(body, version).toEqual(error);
    }
  });

  it("accepts an older link request in its version and refuses it in the newer", async () => {
    const f = await seedAccount();
    const link = (version: string, body: object) =>
      api(`/v2/customers/${f.customerId}/link`, {
        key: f.key,
        version,
        method: "POST",
        body,
        fetch,
      });
    const older = await expectJson<Json>(await link(OLDER, { partner_ref: "crm-1" }), 200);
    expect(older.partner_customer_id).toBe("crm-1");
    const newer = await expectJson<Json>(await link(NEW, { partner_customer_id: "crm-2" }), 200);
    expect(newer.partner_customer_id).toBe("crm-2");

    // Validation errors are shaped per version too: `details` is in both shapes.
    const details = (body: Json) => body.details ?? body.error.details;
    const refused = await expectJson<Json>(await link(NEW, { partner_ref: "crm-3" }), 400);
    expect(details(refused)).toEqual([
      "partner_customer_id is required",
      '"partner_ref" is not a field of this request',
    ]);
    // The newer name is not a field of the older version either.
    const early = await expectJson<Json>(await link(OLDER, { partner_customer_id: "x" }), 400);
    expect(details(early)).toEqual(['"partner_customer_id" is not a field of this request']);
    expect(renamePartnerRefToPartnerCustomerId.instructions).toHaveLength(1);
  });

  it("serves the new endpoint from its version on, and elsewhere answers as an unknown route", async () => {
    const f = await seedAccount();
    for (const version of ALL) {
      const created = await api("/v2/keys", { key: f.key, version, method: "POST", fetch });
      if (WITH("addCreateKeyEndpoint").includes(version)) {
        expect(created.status, version).toBe(201);
        continue;
      }
      const unknown = await api("/v2/keyz", { key: f.key, version, method: "POST", fetch });
      expect(created.status).toBe(404);
      expect(await created.text()).toBe((await unknown.text()).replace("/v2/keyz", "/v2/keys"));
      const names = (res: Response) => [...res.headers.keys()].filter((h) => h !== "x-request-id");
      expect(names(created)).toEqual(names(unknown));
      expect(created.headers.get("x-service-version")).toBe(version);
    }
    // Absent routes are absent before any scope or product check.
    const scopeless = await createKey(f.partnerId, "sandbox", []);
    const res = await api("/v2/keys", {
      key: scopeless.apiKey,
      version: OLDER,
      method: "POST",
      fetch,
    });
    expect(res.status).toBe(404);
  });

  it("lists the version in the changelog, with what each change touches", async () => {
    const res = await fetch(new Request("http://api.test/changelog"));
    const { versions } = await expectJson<Json>(res, 200);
    expect(versions.map((v: Json) => v.version)).toEqual(ALL);
    const entry = versions.find((v: Json) => v.version === NEW);
    expect(entry.changes.map((c: Json) => [c.name, c.resources])).toEqual([
      // A statement field changes wherever a statement is nested: events too.
      ["renameAmountOverdueToOverdueAmount", ["Statement", "StatementList", "Event", "EventList"]],
      ["useApiErrorEnvelopeForForbidden", ["Error"]],
      ["renamePartnerRefToPartnerCustomerId", ["CustomerLinkRequest"]],
      ["addCreateKeyEndpoint", ["POST /v2/keys"]],
    ]);
    const page = await (await fetch(new Request("http://api.test/docs/changelog"))).text();
    expect(page).toContain(`id="v-${NEW}"`);
    expect(page).toContain("<code>partner_customer_id</code>");
  });

  it("gives each version the reference of what it serves", async () => {
    const newer = await document(NEW);
    const older = await document(OLDER);
    const statement = (doc: Json) => Object.keys(doc.components.schemas.Statement.properties);
    expect(statement(newer)).toContain("overdue_amount");
    expect(statement(older)).toContain("amount_overdue");
    expect(statement(older).indexOf("amount_overdue")).toBe(statement(older).indexOf("fees") + 1);
    expect(newer.paths["/v2/keys"]?.post).toBeDefined();
    expect(older.paths["/v2/keys"]).toBeUndefined();
    expect(older.components.schemas.ApiKey).toBeUndefined();
    expect(older.components.schemas.CustomerLinkRequest.required).toEqual(["partner_ref"]);
    expect(newer.components.schemas.CustomerLinkRequest.required).toEqual(["partner_customer_id"]);
    expect(older.components.responses.Forbidden.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/ForbiddenError",
    });
    expect(older.components.schemas.ApiError.properties.error.properties.type.enum).not.toContain(
      "FORBIDDEN_ERROR",
    );
    expect(newer.info.description).toContain("renameAmountOverdueToOverdueAmount");
    const docs = await (await fetch(new Request(`http://api.test/docs?version=${OLDER}`))).text();
    expect(docs).toContain(`<option value="${NEW}"`);
    expect(docs).not.toContain('id="createApiKey"');
    expect(docs).toContain("<code>data[].amount_overdue</code>");
  });

  it("is what docs/versioning.md shows, in full", () => {
    expect(guide).toContain(fixtureSource.replaceAll("../../src/", "../src/"));
    expect(changeNamed(renameAmountOverdueToOverdueAmount.name, bundle)).toBe(
      renameAmountOverdueToOverdueAmount,
    );
  });
});
