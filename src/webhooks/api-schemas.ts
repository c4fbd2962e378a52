// Events, webhook endpoints and their delivery attempts, as the API answers them, and the request
// bodies that manage them.
import * as z from "zod";
import {
  component,
  listOf,
  requestBody,
  resource,
  timestamp,
  tokenPageOf,
} from "../canonical/schemas";
import { EVENT_TYPES } from "../domain/event";
import {
  MAX_PREVIOUS_SECRET_SECONDS,
  type WebhookEndpoint as WebhookEndpointBody,
} from "../domain/webhook-endpoint";
import { MAX_URL_LENGTH } from "../domain/webhook-url";
import { Statement } from "../statements";

export const Event = resource(
  "Event",
  z
    .object({
      event_id: z.string().describe("Unique identifier; the `webhook-id` of its deliveries."),
      type: z
        .enum(EVENT_TYPES)
        .describe(
          "`statement.created`: a closed statement became readable. " +
            "`statement.pdf_available`: its PDF can now be linked. " +
            "`statement.hidden`: the statement left every read. `statement.restated`: a " +
            "correction replaced the statement (`data.statement.restated_by` names it); the " +
            "correction announces itself with `statement.created`.",
        ),
      created_at: timestamp("When the change happened"),
      // The registered Statement itself (not a described copy), so that each version's document
      // refers to that version's Statement.
      data: z
        .object({ statement: Statement.schema })
        .describe(
          "`statement` is the statement as it reads when the event is read or delivered: `as_of` " +
            "and the PDF link are that moment's; a statement hidden since shows its identifiers only.",
        ),
    })
    .describe("Something that happened to a statement; kept 30 days."),
);

export const EventList = resource(
  "EventList",
  tokenPageOf(Event.schema, "Events of the page, newest first."),
);

export const EventResend = resource(
  "EventResend",
  z.object({
    event_id: z.string(),
    webhook_endpoint_ids: z
      .array(z.string())
      .describe("The endpoints the event is queued for, at once."),
  }),
);

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

const EventTypeSchema = z.object({
  type: z.string().describe("The type, as this API version names it."),
  description: z.string().describe("What an event of this type announces."),
});

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

export const ResendEventRequest = requestBody(
  "ResendEventRequest",
  z.strictObject({
    webhook_endpoint_id: z
      .string()
      .optional()
      .describe("Send to this endpoint only; by default, to every enabled endpoint."),
  }),
);

export const WebhookEndpointList = resource("WebhookEndpointList", listOf(WebhookEndpoint.schema));
export const EventTypeList = resource("EventTypeList", listOf(EventTypeSchema));
export const DeliveryAttemptList = resource("DeliveryAttemptList", listOf(DeliveryAttempt.schema));

/** This feature's schemas, in the reference's order. */
export const schemas = [
  Event,
  EventList,
  EventResend,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointRecovery,
  EventTypeList,
  DeliveryAttempt,
  DeliveryAttemptList,
  CreateWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
  RecoverWebhookEndpointRequest,
  RollWebhookEndpointSecretRequest,
  ResendEventRequest,
];

// The schema must describe what handlers build.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const drift: Same<z.infer<typeof WebhookEndpoint.schema>, WebhookEndpointBody> = true;
void drift;
