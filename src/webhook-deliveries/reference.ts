// The webhooks an endpoint receives, as the reference of one version documents them (OpenAPI 3.1
// `webhooks`): one signed POST per event type of that version, with the delivery rules and their
// numbers (timeout, retries, the per-endpoint throttle, health notices, what re-sends, recoveries
// and enables may restart).

import { eventTypesOf } from "../events";
import type { JsonObject, VersionBundle } from "../versioning";
import {
  ENDPOINT_BUDGET as B,
  DELIVERY_DEFAULTS as D,
  MAX_DELIVERY_ATTEMPTS,
  spanOf,
} from "../webhook-endpoints";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** How every delivery goes, with the defaults' numbers. */
const DELIVERY_RULES =
  "Sent to every enabled endpoint of the product whose `enabled_events` take this type, shaped " +
  "in the endpoint's `api_version`. Verify the signature over the raw body before parsing it; " +
  `answer 2xx within ${D.timeoutMs / 1000} seconds. Failed deliveries are retried with backoff ` +
  `for ${spanOf(D.retryWindowSeconds)}; delivery is at least once, so de-duplicate on ` +
  `\`webhook-id\`. An endpoint gets at most ${D.maxPerSecond} deliveries a second: the others ` +
  "wait their turn in the queue, none is dropped. Its Admins are mailed once every attempt has " +
  `failed for ${spanOf(D.failingNoticeAfterSeconds)}, ${spanOf(D.disableWarningSeconds)} before ` +
  `it would be disabled, and when it is disabled, after ${spanOf(D.disableAfterSeconds)} of ` +
  "failures; `POST /v2/webhook_endpoints/{id}/recover` then queues what it missed. A re-send " +
  "or a recovery queues a delivery again within the retry window it had (one closed gets one " +
  `attempt), and a delivery gets ${MAX_DELIVERY_ATTEMPTS} attempts in all. Per endpoint and ` +
  `hour: ${B.recover} recoveries (one at a time), ${B.resend} re-sends and ${B.enable} enables; ` +
  "then `429` with `Retry-After`.";

/** What each webhook endpoint of `version` receives: one signed POST per event type. */
export function webhooksOf(bundle: VersionBundle, version: string): JsonObject {
  const header = (name: string, description: string) => ({
    name,
    in: "header",
    required: true,
    description,
    schema: { type: "string" },
  });
  const out: JsonObject = {};
  for (const { type, description } of eventTypesOf(bundle, version)) {
    out[type] = {
      post: {
        operationId: `receive${type
          .split(/[._]/)
          .map((w) => (w[0]?.toUpperCase() ?? "") + w.slice(1))
          .join("")}`,
        summary: `The ${type} event`,
        description: `${description} ${DELIVERY_RULES}`,
        parameters: [
          header("webhook-id", "The event id: the same on every retry and re-send."),
          header("webhook-timestamp", "Unix seconds when this attempt was signed."),
          header(
            "webhook-signature",
            "`v1,<base64 HMAC-SHA256 of id.timestamp.body>` per live secret, space-separated.",
          ),
        ],
        requestBody: { required: true, content: { "application/json": { schema: ref("Event") } } },
        responses: { "2XX": { description: "Received; any other answer is retried." } },
      },
    };
  }
  return out;
}
