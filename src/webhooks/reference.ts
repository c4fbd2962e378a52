// The webhooks an endpoint receives, as the reference documents them (OpenAPI 3.1 `webhooks`):
// one signed POST per event type.
import { EVENT_TYPES } from "../domain/event";
import type { Json } from "../versioning";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * What each webhook endpoint receives: one signed POST per event, in the endpoint's version, for
 * each of `types` (a version's event types; every type when not given).
 */
export function webhooksOf(types: readonly string[] = EVENT_TYPES): Record<string, Json> {
  const header = (name: string, description: string) => ({
    name,
    in: "header",
    required: true,
    description,
    schema: { type: "string" },
  });
  const out: Record<string, Json> = {};
  for (const type of types) {
    out[type] = {
      post: {
        operationId: `receive${type
          .split(/[._]/)
          .map((w) => (w[0]?.toUpperCase() ?? "") + w.slice(1))
          .join("")}`,
        summary: `The ${type} event`,
        description:
          "Sent to every enabled endpoint of the product, shaped in the endpoint's " +
          "`api_version`. Verify the signature over the raw body before parsing it; answer 2xx " +
          "within 10 seconds. Failed deliveries are retried with backoff for 3 days; delivery is " +
          "at least once, so de-duplicate on `webhook-id`.",
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
