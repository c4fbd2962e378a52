// A dead-lettered delivery driven again by the operator (src/dead-letters/): a new delivery cycle
// of the event to its endpoint, as a re-send starts one (a fresh retry window and generation, so
// that any message of the old cycle attempts nothing), if the endpoint is still enabled and the
// event still kept.
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { webhookDeliveries } from "../webhook-endpoints/schema";
import { DELIVERY_RETURNING, type DeliveryRef, newDeliveryCycle, withShard } from "./event-writes";

/**
 * Starts a new cycle of the delivery `ref` names on `db` (shard `shard`); answers the message to
 * send, or none when there is nothing left to deliver (the event was purged, the endpoint deleted
 * or disabled).
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
    .set(newDeliveryCycle(at))
    .where(
      and(
        eq(webhookDeliveries.eventId, ref.event_id),
        eq(webhookDeliveries.endpointId, ref.endpoint_id),
        sql`EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.endpoint_id = ${ref.endpoint_id}
          AND w.status = 'enabled')`,
      ),
    )
    .returning(DELIVERY_RETURNING);
  return withShard(rows, shard);
}
