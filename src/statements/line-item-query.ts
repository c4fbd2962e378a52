// A line items page's query: `limit`, the signed `starting_after` cursor and the `type` filter
// (one or more line item types, comma-separated). Read once, before authentication, into the value
// that both the read plan and the handler use; documented by the same definition.
import { invalidRequest } from "../app/errors";
import { pageParameters, parseLimit, type QueryDefinition, startingAfterToken } from "../app/query";
import { LINE_ITEM_TYPES, type LineItemPosition, type LineItemType } from "../domain/line-item";
import { peekLineItemPosition } from "../domain/page-token";

export interface LineItemListQuery {
  limit: number;
  /** The types asked for, each once, in LINE_ITEM_TYPES order; empty for every type. */
  types: LineItemType[];
  /** The cursor of a continuation and the position it claims (checked by the handler). */
  startingAfter?: { token: string; position: LineItemPosition };
}

/** The 400 of a cursor this endpoint did not issue for this statement and this filter. */
export function foreignLineItemCursor() {
  return invalidRequest(
    [
      "starting_after must be a next_page_token returned by this endpoint for this statement " +
        "and the same type filter",
    ],
    "starting_after",
  );
}

const KNOWN = new Set<string>(LINE_ITEM_TYPES);

function readTypes(values: string[] | undefined): LineItemType[] {
  if (values === undefined) return [];
  const [value] = values;
  if (values.length !== 1 || value === undefined) {
    throw invalidRequest(
      ["type must be sent once, its types separated by commas: type=PURCHASE,FEE"],
      "type",
    );
  }
  const asked = value.split(",");
  for (const type of asked) {
    if (!KNOWN.has(type)) {
      throw invalidRequest(
        [
          `type: ${JSON.stringify(type.slice(0, 64))} is not a line item type; types are ` +
            `${LINE_ITEM_TYPES.join(", ")}, comma-separated`,
        ],
        "type",
      );
    }
  }
  return LINE_ITEM_TYPES.filter((type) => asked.includes(type));
}

/** The canonical text page tokens are bound to, or undefined for an unfiltered listing. */
export function typeBinding(types: readonly LineItemType[]): string | undefined {
  return types.length === 0 ? undefined : `type=${types.join(",")}`;
}

export const lineItemListQuery: QueryDefinition<LineItemListQuery> = {
  parameters: [
    ...pageParameters("token"),
    {
      name: "type",
      in: "query",
      required: false,
      description:
        "Only line items of these types: one or more of " +
        `${LINE_ITEM_TYPES.map((t) => `\`${t}\``).join(", ")}, comma-separated ` +
        "(`type=PURCHASE,REFUND`). Page tokens are bound to the filter: send the same one with " +
        "`starting_after`.",
      schema: {
        type: "string",
        pattern: `^(${LINE_ITEM_TYPES.join("|")})(,(${LINE_ITEM_TYPES.join("|")}))*$`,
      },
    },
  ],
  parse(query) {
    const limit = parseLimit(query("limit"));
    const types = readTypes(query("type"));
    const token = startingAfterToken(query, foreignLineItemCursor);
    if (token === undefined) return { limit, types };
    const position = peekLineItemPosition(token);
    if (!position) throw foreignLineItemCursor();
    return { limit, types, startingAfter: { token, position } };
  },
};
