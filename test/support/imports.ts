// Calling the operator import in tests, and reading back what it stored: its refusals (400 naming
// each item and field, 409 for a change a closed statement or an owner refuses) and the
// statements a fixture's key is then served.
import { expect } from "vitest";
import { api, type ErrorBody, expectJson, operator, type StatementList } from "./api";
import { type Fixture, statementsPath, uniqueId } from "./fixtures";

export function postImport(payload: unknown): Promise<Response> {
  return operator("POST", "/import", payload);
}

/** Expects a 400 whose details contain every fragment given (each naming an item and field). */
export async function expectInvalid(payload: unknown, ...fragments: string[]): Promise<ErrorBody> {
  const body = await expectJson<ErrorBody>(await postImport(payload), 400);
  expect(body.error.type).toBe("INVALID_REQUEST_ERROR");
  expect(body.error.message).toBe(body.error.details?.[0]);
  for (const fragment of fragments) {
    expect(body.error.details, JSON.stringify(payload).slice(0, 300)).toEqual(
      expect.arrayContaining([expect.stringContaining(fragment)]),
    );
  }
  return body;
}

export async function expectConflict(payload: unknown, fragment: string): Promise<ErrorBody> {
  const body = await expectJson<ErrorBody>(await postImport(payload), 409);
  expect(body.error.type).toBe("CONFLICT_ERROR");
  expect(body.error.details).toEqual(expect.arrayContaining([expect.stringContaining(fragment)]));
  return body;
}

export async function listStatements(f: Fixture): Promise<StatementList> {
  return expectJson<StatementList>(await api(statementsPath(f), { key: f.key }), 200);
}

/** Every figure of a fixture's visible statements, as served (as_of aside). */
export async function servedFigures(f: Fixture): Promise<Record<string, unknown>[]> {
  const list = await listStatements(f);
  return list.data.map(({ as_of: _asOf, ...rest }) => rest);
}

/** A fresh partner with one sandbox product, as an import section. */
export function newPartner(partnerId = uniqueId("partner"), merchantKey = uniqueId("mk")) {
  return {
    partner_id: partnerId,
    name: "Partner",
    products: [{ merchant_key: merchantKey, name: "Card", documents: "uploaded" }],
  };
}
