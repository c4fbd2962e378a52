// Webhook endpoints as the API answers them, and the request bodies that create, change and
// roll them.
import * as z from "zod";
import { listOf, requestBody, resource, timestamp } from "../canonical/schemas";
import {
  MAX_PREVIOUS_SECRET_SECONDS,
  type WebhookEndpoint as WebhookEndpointBody,
} from "../domain/webhook-endpoint";
import { MAX_URL_LENGTH } from "../domain/webhook-url";

/** The most types one filter may name (far more than there are). */
const MAX_ENABLED_EVENTS = 100;

const enabledEvents = z
  .array(z.string().min(1).max(100))
  .min(1)
  .max(MAX_ENABLED_EVENTS)
  .describe(
    "The event types it receives, as its `api_version` names them (`GET /v2/event_types` in " +
      'that version lists them), or `["*"]` for every type, present and future (the default).',
  );

const EndpointHealthSchema = z
  .object({
    recent_attempts: z
      .int()
      .min(0)
      .describe("Attempts counted: its latest, at most 100, of the last 24 hours."),
    recent_success_rate: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe("The share of those that succeeded, 0 to 1; omitted when there were none."),
    failure_streak: z
      .int()
      .min(0)
      .describe("Failed attempts in a row since its last success (or since it was enabled)."),
    failing_since: timestamp(
      "When the current run of failed attempts began; omitted while it is not failing",
    ).optional(),
    disables_at: timestamp(
      "When it will be disabled if every attempt keeps failing; only while enabled and failing",
    ).optional(),
  })
  .describe(
    "How the endpoint has fared lately. Its Admins are mailed when it starts failing, a day " +
      "before it would be disabled, and when it is disabled.",
  );

export const WebhookEndpoint = resource(
  "WebhookEndpoint",
  z
    .object({
      webhook_endpoint_id: z.string(),
      url: z.string().meta({ format: "uri", description: "Where events are posted." }),
      description: z.string().optional(),
      api_version: z
        .string()
        .describe("The API version of every payload sent here, pinned when the endpoint was made."),
      enabled_events: enabledEvents,
      status: z
        .enum(["enabled", "disabled"])
        .describe("`disabled` after failing for days on end; enable it again once fixed."),
      disabled_at: timestamp("When it was disabled").optional(),
      disabled_reason: z.string().optional(),
      created_at: timestamp("When the endpoint was created"),
      health: EndpointHealthSchema,
      secret: z
        .string()
        .optional()
        .describe(
          "The signing secret (`whsec_…`): only in the responses that create or roll it. Keep it.",
        ),
      previous_secret_expires_at: timestamp(
        "Until when the secret replaced by a roll still signs deliveries beside the new one",
      ).optional(),
    })
    .describe("An HTTPS endpoint that receives this product's statement events, signed."),
);

export const WebhookEndpointList = resource("WebhookEndpointList", listOf(WebhookEndpoint.schema));

export const CreateWebhookEndpointRequest = requestBody(
  "CreateWebhookEndpointRequest",
  z.strictObject({
    url: z
      .string()
      .max(MAX_URL_LENGTH)
      .describe("An https URL of a public host. No credentials; no redirects are followed."),
    description: z.string().min(1).max(255).optional(),
    api_version: z
      .string()
      .optional()
      .describe("The version payloads are shaped in; by default, this request's version."),
    enabled_events: enabledEvents.optional(),
  }),
);

export const UpdateWebhookEndpointRequest = requestBody(
  "UpdateWebhookEndpointRequest",
  z.strictObject({
    url: CreateWebhookEndpointRequest.schema.shape.url.optional(),
    description: z
      .string()
      .max(255)
      .optional()
      .describe("A label for the endpoint; an empty string removes it."),
    enabled_events: enabledEvents.optional(),
  }),
);

export const RollWebhookEndpointSecretRequest = requestBody(
  "RollWebhookEndpointSecretRequest",
  z.strictObject({
    previous_secret_expires_in: z
      .int()
      .min(0)
      .max(MAX_PREVIOUS_SECRET_SECONDS)
      .optional()
      .describe(
        "Seconds the replaced secret keeps signing beside the new one, so receivers can switch " +
          "without losing a delivery; 0 stops it at once. Default 86400 (24 hours).",
      ),
  }),
);

/** This feature's schemas, in the reference's order. */
export const schemas = [
  WebhookEndpoint,
  WebhookEndpointList,
  CreateWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
  RollWebhookEndpointSecretRequest,
];

// The schema must describe what handlers build.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const drift: Same<z.infer<typeof WebhookEndpoint.schema>, WebhookEndpointBody> = true;
void drift;
