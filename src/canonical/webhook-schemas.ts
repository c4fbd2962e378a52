// The canonical schemas of events, webhook endpoints and their delivery attempts, and of the
// request bodies that manage them (the routes validate with these same schemas).
import * as z from "zod";
import { EVENT_TYPES } from "../domain/event";
import { MAX_PREVIOUS_SECRET_SECONDS, type WebhookEndpoint } from "../domain/webhook-endpoint";
import { MAX_URL_LENGTH } from "../domain/webhook-url";

const timestamp = (description: string) =>
  z.string().meta({ format: "date-time", description: `${description} (RFC 3339).` });

/** Event, EventList and EventResend, around the Statement schema of the same document. */
export function eventSchemas(statement: z.ZodType) {
  const Event = z
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
        .object({ statement })
        .describe(
          "`statement` is the statement as it reads when the event is read or delivered: `as_of` " +
            "and the PDF link are that moment's; a statement hidden since shows its identifiers only.",
        ),
    })
    .describe("Something that happened to a statement; kept 30 days.");
  const EventList = z.object({
    data: z.array(Event).describe("Events of the page, newest first."),
    has_more: z.boolean().describe("True when another page exists."),
    next_page_token: z
      .string()
      .optional()
      .describe("Opaque cursor for the next page, sent back as `starting_after`; only with more."),
  });
  const EventResend = z.object({
    event_id: z.string(),
    webhook_endpoint_ids: z
      .array(z.string())
      .describe("The endpoints the event is queued for, at once."),
  });
  return { Event, EventList, EventResend };
}

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

export const EndpointHealthSchema = z
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

export const WebhookEndpointSchema = z
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
  .describe("An HTTPS endpoint that receives this product's statement events, signed.");

export const DeliveryAttemptSchema = z.object({
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
});

export const CreateWebhookEndpointRequestSchema = z.strictObject({
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
});

export const UpdateWebhookEndpointRequestSchema = z.strictObject({
  url: CreateWebhookEndpointRequestSchema.shape.url.optional(),
  description: z
    .string()
    .max(255)
    .optional()
    .describe("A label for the endpoint; an empty string removes it."),
  enabled_events: enabledEvents.optional(),
});

export const RecoverWebhookEndpointRequestSchema = z.strictObject({
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
});

export const WebhookEndpointRecoverySchema = z
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
  );

export const EventTypeSchema = z.object({
  type: z.string().describe("The type, as this API version names it."),
  description: z.string().describe("What an event of this type announces."),
});

export const RollWebhookEndpointSecretRequestSchema = z.strictObject({
  previous_secret_expires_in: z
    .int()
    .min(0)
    .max(MAX_PREVIOUS_SECRET_SECONDS)
    .optional()
    .describe(
      "Seconds the replaced secret keeps signing beside the new one, so receivers can switch " +
        "without losing a delivery; 0 stops it at once. Default 86400 (24 hours).",
    ),
});

export const ResendEventRequestSchema = z.strictObject({
  webhook_endpoint_id: z
    .string()
    .optional()
    .describe("Send to this endpoint only; by default, to every enabled endpoint."),
});

// The schema must describe what handlers build.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const drift: Same<z.infer<typeof WebhookEndpointSchema>, WebhookEndpoint> = true;
void drift;
