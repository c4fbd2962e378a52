// A version module cannot misspell what it names: the instruction builders are typed by the
// canonical model, so each line marked `@ts-expect-error` below must fail to compile, and
// `npm run typecheck` fails if one of them compiles (a misspelling that got through).
import { describe, expect, it } from "vitest";
import { endpoint, error, schema } from "../../src/version-changes";

/** Never called: the type checker is its only reader. */
function misspellings() {
  const statement = schema("Statement");
  const removed = { schema: {}, from: () => undefined };
  // @ts-expect-error: no schema of that name
  schema("Statment");
  // @ts-expect-error: Statement has no such field, so it can only be one a newer version removed
  statement.field("overdue_amout").had({ name: "amount_overdue" });
  // @ts-expect-error: likewise for a field said to be new
  void statement.field("pdff").didntExist;
  // @ts-expect-error: a field the schema has was not removed
  statement.field("fees").existedAs(removed);
  // @ts-expect-error: a removed field follows a field the schema has
  statement.field("pdf_url").existedAs({ ...removed, after: "feez" });
  // @ts-expect-error: no error type of that name
  error("FORBIDDEN_EROR").had({ type: "ACCESS_DENIED_ERROR" });
  // @ts-expect-error: no route of that method and path
  void endpoint("POST", "/v2/key").didntExist;
  // @ts-expect-error: the route exists, with another method
  void endpoint("GET", "/v2/keys").didntExist;
}
void misspellings;

describe("typed instructions", () => {
  it("name the canonical schemas, fields, error types and routes", () => {
    expect(schema("Statement").field("overdue_amount").had({ name: "amount_overdue" })).toEqual({
      kind: "field",
      schema: "Statement",
      field: "overdue_amount",
      was: { had: { name: "amount_overdue" } },
    });
    const removed = { schema: { type: "string" }, after: "due_date" as const, from: () => "x" };
    expect(schema("Statement").field("pdf_url").existedAs(removed)).toMatchObject({
      field: "pdf_url",
      was: { existedAs: removed },
    });
    expect(error("FORBIDDEN_ERROR").had({ type: "ACCESS_DENIED_ERROR" })).toMatchObject({
      types: ["FORBIDDEN_ERROR"],
    });
    expect(endpoint("POST", "/v2/keys").didntExist).toEqual({
      kind: "endpoint",
      method: "POST",
      path: "/v2/keys",
      was: "didntExist",
    });
  });
});
