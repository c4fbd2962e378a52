// The queue consumers, one per queue: request logs, statement renders, webhook deliveries, and
// the dead letters of all three.
import type { AppEnv } from "./app/context";
import { consumeDeadLetters, deadLetterQueueOf } from "./dead-letters";
import type { RenderRef } from "./documents";
import { RENDER_QUEUE, renderConsumer } from "./documents";
import { consumeRequestLogs, isRequestLogQueue } from "./request-logs";
import type { VersionBundle } from "./versioning";
import type { DeliveryRef } from "./webhook-deliveries";
import { webhookConsumer } from "./webhook-deliveries";

/** The `queue()` handler: each batch goes to its queue's consumer; deliveries speak `bundle`. */
export function queueConsumers(bundle: VersionBundle) {
  const deliverWebhooks = webhookConsumer(bundle);
  const render = renderConsumer();
  return (batch: MessageBatch<unknown>, env: AppEnv["Bindings"]) => {
    const deadLetters = deadLetterQueueOf(batch.queue);
    if (deadLetters) return consumeDeadLetters(deadLetters, batch, env);
    if (isRequestLogQueue(batch.queue)) return consumeRequestLogs(batch, env);
    // A queue's name says what it carries: only the render queue's producer sends to it, and the
    // one queue left (wrangler.toml) is the webhook deliveries', which only sends DeliveryRefs.
    return batch.queue === RENDER_QUEUE
      ? render(batch as MessageBatch<RenderRef>, env)
      : deliverWebhooks(batch as MessageBatch<DeliveryRef>, env);
  };
}
