// The queue consumers, one per queue: request logs, statement renders and webhook deliveries.
import type { AppEnv } from "./app/context";
import type { RenderRef } from "./documents";
import { RENDER_QUEUE, renderConsumer } from "./documents";
import { consumeRequestLogs, isRequestLogQueue } from "./request-logs";
import type { VersionBundle } from "./versioning";
import type { DeliveryRef } from "./webhooks";
import { webhookConsumer } from "./webhooks";

/** The `queue()` handler: each batch goes to its queue's consumer; deliveries speak `bundle`. */
export function queueConsumers(bundle: VersionBundle) {
  const deliverWebhooks = webhookConsumer(bundle);
  const render = renderConsumer();
  return (batch: MessageBatch<unknown>, env: AppEnv["Bindings"]) =>
    isRequestLogQueue(batch.queue)
      ? consumeRequestLogs(batch, env)
      : batch.queue === RENDER_QUEUE
        ? render(batch as MessageBatch<RenderRef>, env)
        : deliverWebhooks(batch as MessageBatch<DeliveryRef>, env);
}
