// Reading statement events of one read scope: a keyset page newest first, or one event by id.

import { and, desc, eq, getTableColumns, gte, type SQL, sql } from "drizzle-orm";
import { allOf } from "../db/batch";
import type { Database } from "../db/client";
import type { ReadScope } from "../db/customers";
import type { EventType } from "../domain/event";
import { statements } from "../statements/schema";
import { events } from "./schema";

type StatementRow = typeof statements.$inferSelect;

/** An event with its statement's row (the statement's figures never change). */
export interface EventRow {
  eventId: string;
  type: EventType;
  createdAt: string;
  customerId: string;
  statement: StatementRow;
}

/** The keyset position of an events page: the last event returned. */
export interface EventPosition {
  createdAt: string;
  eventId: string;
}

// Column names must be distinct across the join (see db/client.ts): the statement's own
// `created_at` is read under another name. drizzle reads the nested statement into its own object.
const { createdAt: statementCreatedAt, ...statementColumns } = getTableColumns(statements);
export const EVENT_FIELDS = {
  eventId: events.eventId,
  type: events.type,
  createdAt: events.createdAt,
  customerId: events.customerId,
  statement: {
    ...statementColumns,
    createdAt: sql<string>`${statementCreatedAt}`.as("statement_created_at"),
  },
};

/** An event row from a select of `EVENT_FIELDS` (other selected fields are ignored). */
export function toEventRow({
  eventId,
  type,
  createdAt,
  customerId,
  statement,
}: EventRow): EventRow {
  return { eventId, type, createdAt, customerId, statement };
}

function inScope(scope: ReadScope, since: string): SQL {
  return allOf(
    eq(events.partnerId, scope.partnerId),
    eq(events.environment, scope.environment),
    eq(events.merchantKey, scope.merchantKey),
    gte(events.createdAt, since),
  );
}

/**
 * The ids of a page of events of `types` only: per type, the first `limit + 1` of one range of
 * `events_type_page_idx`, so that a rare type costs no scan of the others.
 */
function pageOfTypes(
  scope: ReadScope,
  since: string,
  after: EventPosition | null,
  limit: number,
  types: readonly EventType[],
): SQL {
  const position = after
    ? sql`AND (created_at, event_id) < (${after.createdAt}, ${after.eventId})`
    : sql``;
  const perType = types.map(
    (type) => sql`SELECT event_id FROM (SELECT event_id FROM events
      WHERE partner_id = ${scope.partnerId} AND environment = ${scope.environment}
        AND merchant_key = ${scope.merchantKey} AND type = ${type} AND created_at >= ${since}
        ${position}
      ORDER BY created_at DESC, event_id DESC LIMIT ${limit + 1})`,
  );
  return sql.join(perType, sql` UNION ALL `);
}

/**
 * Up to `limit + 1` events of the scope created at or after `since`, newest first, after `after`,
 * of `types` only when given: one range of `events_page_idx` (or one of `events_type_page_idx`
 * per type), each event joined to its statement by primary key.
 */
export async function readEventPage(
  db: Database,
  scope: ReadScope,
  since: string,
  after: EventPosition | null,
  limit: number,
  types: readonly EventType[] | null = null,
): Promise<EventRow[]> {
  if (types !== null && types.length === 0) return [];
  // Of some types: the pages of each type, already in the scope, window and position, read by
  // primary key (a condition on the scope's range here would let the planner scan it instead).
  const where =
    types === null
      ? and(
          inScope(scope, since),
          after
            ? sql`(${events.createdAt}, ${events.eventId}) < (${after.createdAt}, ${after.eventId})`
            : undefined,
        )
      : sql`${events.eventId} IN (${pageOfTypes(scope, since, after, limit, types)})`;
  const rows = await db
    .select(EVENT_FIELDS)
    .from(events)
    .innerJoin(statements, eq(statements.statementId, events.statementId))
    .where(where)
    .orderBy(desc(events.createdAt), desc(events.eventId))
    .limit(limit + 1);
  return rows.map(toEventRow);
}

/** One event of the scope created at or after `since`, or null. */
export async function findEvent(
  db: Database,
  scope: ReadScope,
  since: string,
  eventId: string,
): Promise<EventRow | null> {
  const [row] = await db
    .select(EVENT_FIELDS)
    .from(events)
    .innerJoin(statements, eq(statements.statementId, events.statementId))
    .where(and(eq(events.eventId, eventId), inScope(scope, since)));
  return row ? toEventRow(row) : null;
}
