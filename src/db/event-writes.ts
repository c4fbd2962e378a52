// Writing statement events: rows for one atomic batch with the change that causes them, and the
// fan-out of each new event to the enabled webhook endpoints of its product (the delivery outbox).
import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { EventType } from "../domain/event";
import type { Database } from "./client";
import { events as eventsTable, webhookDeliveries } from "./schema";

/** A delivery the batch created: what a queue message carries. */
export interface DeliveryRef {
  event_id: string;
  endpoint_id: string;
  generation: number;
}

/** Statement ids per statement of SQL: well under D1's 100 bound parameters. */
const CHUNK = 90;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

export interface EventWrites {
  /** Put these in the change's batch, after the writes that create the statements. */
  events: BatchItem<"sqlite">[];
  /** Put these after `events`; each answers the deliveries it created (`deliveriesOf`). */
  deliveries: BatchItem<"sqlite">[];
}

/**
 * The writes that record event `type` for each of `statementIds` that satisfies `when` (a
 * condition on the statement row `s`, checked before the change in the same batch), and queue
 * its delivery to every enabled endpoint of the statement's product. Each transition is recorded
 * once per statement: a unique index turns a repeat into a no-op.
 */
export function statementEventWrites(
  db: Database,
  type: EventType,
  statementIds: readonly string[],
  createdAt: string,
  when: SQL = sql`1 = 1`,
): EventWrites {
  const events: BatchItem<"sqlite">[] = [];
  const deliveries: BatchItem<"sqlite">[] = [];
  for (const ids of chunks(statementIds)) {
    const list = sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    );
    // Raw SELECTs list every column in the tables' definition order (drizzle inserts them so).
    events.push(
      db
        .insert(eventsTable)
        .select(
          sql`SELECT 'evt_' || lower(hex(randomblob(12))), ${type}, s.statement_id, s.account_id,
                     a.customer_id, a.partner_id, a.environment, a.merchant_key, ${createdAt}
              FROM statements s JOIN accounts a ON a.account_id = s.account_id
              WHERE s.statement_id IN (${list}) AND ${when}`,
        )
        .onConflictDoNothing({ target: [eventsTable.statementId, eventsTable.type] }),
    );
    deliveries.push(
      db
        .insert(webhookDeliveries)
        .select(
          sql`SELECT e.event_id, w.endpoint_id, 'pending', 0, 0, ${createdAt}, ${createdAt}, NULL, NULL
              FROM events e JOIN webhook_endpoints w
                ON w.partner_id = e.partner_id AND w.environment = e.environment
               AND w.merchant_key = e.merchant_key AND w.status = 'enabled'
              WHERE e.statement_id IN (${list}) AND e.type = ${type}
                AND e.created_at = ${createdAt}`,
        )
        .onConflictDoNothing()
        .returning({
          event_id: webhookDeliveries.eventId,
          endpoint_id: webhookDeliveries.endpointId,
          generation: webhookDeliveries.generation,
        }),
    );
  }
  return { events, deliveries };
}

/** The deliveries created, from the batch results of the `deliveries` writes. */
export function deliveriesOf(results: readonly unknown[]): DeliveryRef[] {
  return results.flatMap((rows) => (Array.isArray(rows) ? (rows as DeliveryRef[]) : []));
}
