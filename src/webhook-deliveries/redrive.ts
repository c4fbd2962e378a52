// A dead-lettered delivery driven again by the operator (src/dead-letters/): the event queued to its
// endpoint again, as a re-send queues it (a new generation, so that any message of the old one
// attempts nothing, in the retry window it had), if the endpoint is still enabled, the event still
// kept, and the delivery has attempts left.
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { webhookDeliveries } from "../webhook-endpoints/schema";
import {
  attemptsLeft,
  DELIVERY_RETURNING,
  type DeliveryRef,
  requeued,
  withShard,
} from "./event-writes";

/**
 * Queues the delivery `ref` names on `db` (shard `shard`) again; answers the message to send, or
 * none when there is nothing left to deliver (the event was purged, the endpoint deleted or
 * disabled, or the delivery has had all its attempts).
 */
export async function redriveDelivery(
  db: Database,
  shard: string,
  ref: { event_id: string; endpoint_id: string },
  now: Date,
): Promise<DeliveryRef[]> {
  const at = now.toISOString();
  const rows = await db
    .update(webhookDeliveries)
    .set(requeued(at))
    .where(
      and(
        eq(webhookDeliveries.eventId, ref.event_id),
        eq(webhookDeliveries.endpointId, ref.endpoint_id),
        attemptsLeft("webhook_deliveries"),
        sql`EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.endpoint_id = ${ref.endpoint_id}
          AND w.status = 'enabled')`,
      ),
    )
    .returning(DELIVERY_RETURNING);
  return withShard(rows, shard);
}
