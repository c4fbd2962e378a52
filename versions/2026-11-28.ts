// 2026-11-28: corrected statements are announced as `statement.restated`.
import type { ApiVersion, VersionChange } from "../src/version-changes";
import { schema } from "../src/version-changes";

export const announceRestatementsAsStatementRestated: VersionChange = {
  name: "announceRestatementsAsStatementRestated",
  description:
    "A statement replaced by a correction is announced with the new event type " +
    "`statement.restated` (its `data.statement.restated_by` names the correction, which is " +
    "announced with `statement.created`). Versions before this one know no such type: they " +
    "receive the same event as `statement.hidden`, since the statement left the list.",
  instructions: [
    schema("Event")
      .field("type")
      .had({
        schema: {
          type: "string",
          enum: ["statement.created", "statement.pdf_available", "statement.hidden"],
          description:
            "`statement.created`: a closed statement became readable. " +
            "`statement.pdf_available`: its PDF can now be linked. " +
            "`statement.hidden`: the statement left every list (hidden, or replaced by a " +
            "correction: `data.statement.restated_by` then names it).",
        },
        toOlder: (type) => (type === "statement.restated" ? "statement.hidden" : type),
      }),
  ],
};

export const v2026_11_28: ApiVersion = {
  id: "2026-11-28",
  released: true,
  summary:
    "Statements replaced by a correction are announced as `statement.restated`. Nothing else " +
    "changes: the statement's line items, rates, year-to-date totals and correction links, and " +
    "the routes that read one statement and its line items, are in every version.",
  changes: [announceRestatementsAsStatementRestated],
};
