// Statement events: what a partner can learn happened to a statement, by list or by webhook.
import type { Statement } from "./statement";

export const EVENT_TYPES = [
  "statement.created",
  "statement.pdf_available",
  "statement.hidden",
  "statement.restated",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** What each event type announces: the catalogue's and the reference's descriptions. */
export const EVENT_TYPE_DESCRIPTIONS: Record<EventType, string> = {
  "statement.created": "A closed statement became readable.",
  "statement.pdf_available": "The statement's PDF can now be linked.",
  "statement.hidden": "The statement left every read.",
  "statement.restated":
    "The statement was corrected: its `restated_by` names the correction, which replaces it in the list.",
};

/** How long events stay listable (and re-sendable). */
export const EVENT_RETENTION_MS = 30 * 24 * 3600 * 1000;

/**
 * The canonical event. `data.statement` is the statement as it reads when the event is read or
 * delivered: its figures never change, while `as_of` and the PDF link are that moment's, and a
 * statement hidden since keeps only its identifiers (a hidden statement leaves every read). A
 * restated statement is read in full, with its `restated_by`: it can still be retrieved.
 */
export type StatementEvent = {
  event_id: string;
  type: EventType;
  created_at: string;
  data: { statement: Statement };
};

/** The identifying part of a statement: all an event shows of one that has been hidden. */
export function statementIdentity(
  statement: Pick<Statement, "statement_id" | "customer_id" | "account_id" | "as_of">,
): Statement {
  return {
    statement_id: statement.statement_id,
    customer_id: statement.customer_id,
    account_id: statement.account_id,
    as_of: statement.as_of,
  };
}
