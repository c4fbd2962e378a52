// The canonical event as a partner reads it now: the statement's figures as imported, `as_of` and
// the PDF link of this moment, and only the identifiers of a statement hidden since.
import type { Json, ResponseContext, VersionBundle } from "../../versions";
import type { EventRow } from "../db/events";
import { type StatementEvent, statementIdentity } from "../domain/event";
import type { Signer } from "../domain/signing";
import { toStatement } from "../domain/statement";
import { LINK_LIFETIME_MS, signStatementLink } from "../domain/statement-link";

export interface ReadMoment {
  signer: Signer;
  /** Origin of the API the links point to. */
  origin: string;
  /** When the event is read or delivered: `as_of`, and the start of the link's hour. */
  now: Date;
}

export async function renderEvent(row: EventRow, at: ReadMoment): Promise<StatementEvent> {
  const asOf = at.now.toISOString();
  const s = row.statement;
  let statement = toStatement(s, row.customerId, asOf, undefined);
  if (s.hiddenAt !== null) {
    statement = statementIdentity(statement);
  } else if (s.pdfKey) {
    const expiresAt = at.now.getTime() + LINK_LIFETIME_MS;
    const pdf = {
      url: await signStatementLink(at.signer, at.origin, s.statementId, expiresAt),
      expires_at: new Date(expiresAt).toISOString(),
    };
    statement = toStatement(s, row.customerId, asOf, pdf);
  }
  return {
    event_id: row.eventId,
    type: row.type,
    created_at: row.createdAt,
    data: { statement },
  };
}

/**
 * An event in the shape of `version`. The bundle reshapes the statement inside it wherever the
 * reference nests one, by the same version changes as any statement read.
 */
export function eventInVersion(
  bundle: VersionBundle,
  version: string,
  event: StatementEvent,
  ctx: ResponseContext,
): Json {
  return bundle.transform(version, "Event", event, ctx);
}
