// Handing new webhook deliveries to their queue (the sending itself: app/queue-send.ts).
import { enqueueMessages } from "../app/queue-send";
import type { DeliveryRef } from "./event-writes";

/** Enqueues new deliveries; a failure is logged, and the sweep sends them later. */
export const enqueueDeliveries = (
  queue: Queue,
  deliveries: readonly DeliveryRef[],
  requestId: string,
) => enqueueMessages(queue, deliveries, requestId);
