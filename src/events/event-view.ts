// The canonical event as a partner reads it now: the statement's figures as imported, `as_of` and
// the PDF link of this moment, and only the identifiers of a statement hidden since.
import { type StatementEvent, statementIdentity } from "../domain/event";
import type { Signer } from "../domain/signing";
import { toStatement } from "../domain/statement";
import { LINK_LIFETIME_MS, signStatementLinks } from "../domain/statement-link";
import type { JsonValue, ResponseContext, VersionBundle } from "../versioning";
import type { EventRow } from "./event-store";

export interface ReadMoment {
  signer: Signer;
  /** Origin of the API the links point to. */
  origin: string;
  /** When the event is read or delivered: `as_of`, and the start of the link's hour. */
  now: Date;
  /** The shard the statements were read from, which their links name. */
  shard: string;
}

/** Events as they read at one moment; their PDF links are signed together. */
export async function renderEvents(
  rows: readonly EventRow[],
  at: ReadMoment,
): Promise<StatementEvent[]> {
  const asOf = at.now.toISOString();
  const expiresAt = at.now.getTime() + LINK_LIFETIME_MS;
  const linked = rows.filter((row) => row.statement.hiddenAt === null && row.statement.pdfKey);
  const ids = linked.map((row) => row.statement.statementId);
  const urls =
    ids.length > 0 ? await signStatementLinks(at.signer, at.origin, ids, expiresAt, at.shard) : [];
  const links = new Map(linked.map((row, i) => [row, urls[i]]));
  return rows.map((row) => {
    const url = links.get(row);
    const pdf = url ? { url, expires_at: new Date(expiresAt).toISOString() } : undefined;
    const statement = toStatement(row.statement, row.customerId, asOf, pdf);
    return {
      event_id: row.eventId,
      type: row.type,
      created_at: row.createdAt,
      data: {
        statement: row.statement.hiddenAt !== null ? statementIdentity(statement) : statement,
      },
    };
  });
}

/** One event as it reads at `at`. */
export async function renderEvent(row: EventRow, at: ReadMoment): Promise<StatementEvent> {
  const [event] = await renderEvents([row], at);
  if (!event) throw new Error("rendering one event answered none");
  return event;
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
): JsonValue {
  return bundle.transform(version, "Event", event, ctx);
}
