// Deliveries as the API answers them: an event re-sent, an endpoint's attempts and its recovery,
// and the request bodies that ask for them.
import * as z from "zod";
import { component, listOf, requestBody, resource, timestamp } from "../canonical/schemas";

export const EventResend = resource(
  "EventResend",
  z.object({
    event_id: z.string(),
    webhook_endpoint_ids: z
      .array(z.string())
      .describe("The endpoints the event is queued for, at once."),
  }),
);

export const DeliveryAttempt = component(
  "DeliveryAttempt",
  z.object({
    attempt_id: z.string(),
    event_id: z.string(),
    webhook_endpoint_id: z.string(),
    attempted_at: timestamp("When the attempt started"),
    duration_ms: z.int().min(0).describe("How long the endpoint took to answer."),
    status: z
      .enum(["succeeded", "failed", "timed_out"])
      .describe("`succeeded` on a 2xx answer; redirects are not followed and count as failed."),
    response_status: z.int().optional().describe("The endpoint's HTTP status, when it answered."),
    error: z.string().optional().describe("Why the attempt failed, when it did."),
  }),
);

export const DeliveryAttemptList = resource("DeliveryAttemptList", listOf(DeliveryAttempt.schema));

export const RecoverWebhookEndpointRequest = requestBody(
  "RecoverWebhookEndpointRequest",
  z.strictObject({
    since: z.string().meta({
      format: "date-time",
      description:
        "Recover events created at or after this instant (RFC 3339), within the 30 days events " +
        "are kept.",
    }),
    until: z
      .string()
      .meta({
        format: "date-time",
        description: "…and before this instant (RFC 3339); by default, now.",
      })
      .optional(),
  }),
);

export const WebhookEndpointRecovery = resource(
  "WebhookEndpointRecovery",
  z
    .object({
      webhook_endpoint_id: z.string(),
      since: timestamp("The start of the window (inclusive)"),
      until: timestamp("The end of the window (exclusive)"),
      queued: z
        .int()
        .min(0)
        .describe("Events queued for delivery to the endpoint, in the order they happened."),
      has_more: z
        .boolean()
        .describe(
          "True when the window holds more events than one call queues (10,000): call again " +
            "with the same window to queue the next ones.",
        ),
    })
    .describe(
      "The events of the endpoint's types in the window that it has not received, queued once " +
        "each in the order they happened, through its delivery throttle (10 deliveries a second).",
    ),
);

export const ResendEventRequest = requestBody(
  "ResendEventRequest",
  z.strictObject({
    webhook_endpoint_id: z
      .string()
      .optional()
      .describe("Send to this endpoint only; by default, to every enabled endpoint."),
  }),
);

/** This feature's schemas, in the reference's order. */
export const schemas = [
  EventResend,
  WebhookEndpointRecovery,
  DeliveryAttempt,
  DeliveryAttemptList,
  RecoverWebhookEndpointRequest,
  ResendEventRequest,
];
