// What the version engine's tests build bundles from: untyped instruction builders, a canonical
// statement, changes and dated versions, and a deeply frozen body.
import { bundleOf } from "../../src/bundle";
import {
  type ApiVersion,
  type Instruction,
  instructionsFor,
  type VersionChange,
  type Vocabulary,
} from "../../src/versioning";
import type { Json } from "./json";

// The engine's own checks, with names the type checker does not know: what a misspelt name
// would meet at start-up if it got past the type checker (see test/versioning/typed-instructions.test.ts).
export const { schema, error, endpoint } = instructionsFor<Vocabulary>();

export const ctx = { path: "/v2/x", status: 200, timestamp: "2026-11-02T10:00:00.000Z" };

export const statement = {
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
export const list = { data: [statement], has_more: false };

export const change = (name: string, extra: Partial<VersionChange> = {}): VersionChange => ({
  name,
  description: `${name} description`,
  sideEffects: true,
  ...extra,
});
export const dated = (id: string, changes: VersionChange[] = []): ApiVersion => ({
  id,
  released: true,
  changes,
});
export const OLDEST = dated("2020-01-01");
/** A bundle of one change in 2027-01-01 over an empty oldest version. */
export const withChange = (...instructions: Instruction[]) =>
  bundleOf([
    dated("2027-01-01", [{ name: "changeSomething", description: "d", instructions }]),
    OLDEST,
  ]);
export const older = (
  b: ReturnType<typeof withChange>,
  resource: "StatementList" | "Error",
  body: Json,
): Json => b.transform("2020-01-01", resource, body, ctx);

/** Freezes a body deeply: a transform that mutated its input would throw. */
export function frozen<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) frozen(child);
    Object.freeze(value);
  }
  return value;
}
