// The queue consumer: one attempt per message, when its endpoint's throttle admits it
// (throttle.ts), of an event the endpoint takes as its version shows it (events/event-types.ts),
// signed per Standard Webhooks, recorded with the endpoint's health
// (webhook-endpoints/endpoint-health.ts), and retried with backoff through the queue until the
// retry window closes (then dead-lettered). At least once: a receiver de-duplicates on
// `webhook-id`, the event id.

import type { Bindings } from "../app/context";
import { moveDeferSeconds, postpone } from "../app/queue-deferral";
import { type Database, newQueryStats } from "../db/client";
import { FIRST_SHARD, openPartnerDatabase, openShards, type PartnerDatabase } from "../db/shards";
import { isPartnerMoving } from "../db/storage";
import { encodeIdSuffix } from "../domain/ids";
import { nextRetryDelay } from "../domain/retry-schedule";
import { signerFor } from "../domain/signing";
import { signingSecrets, storedEventTypes } from "../domain/webhook-endpoint";
import { webhookUrlProblem } from "../domain/webhook-url";
import {
  EVENT_TYPES_REVISION,
  eventInVersion,
  renderEvent,
  type StoredFilter,
  storedFilter,
  takesEvent,
} from "../events";
import { isJsonObject, type VersionBundle } from "../versioning";
import {
  type DeliveryConfig,
  DISABLED,
  defaultNotice,
  deliveryConfig,
  type HealthChange,
  MAX_DELIVERY_ATTEMPTS,
  type NoticeDependencies,
  notifyEndpointHealth,
  type SecretSealer,
  secretSealerOf,
  signWebhook,
} from "../webhook-endpoints";
import { type ClaimedDelivery, claimDelivery, dropDelivery, storeFilter } from "./delivery-claim";
import { type DeliveryNext, recordAttempt } from "./delivery-work";
import type { DeliveryRef } from "./event-writes";
import { type PostOutcome, postWebhook } from "./post-webhook";
import { delayUntil, slotSecond } from "./throttle";

const USER_AGENT = "CardStatements-Webhooks/1.0";

interface Delivery {
  /** The versions events are shaped in (the app's bundle). */
  bundle: VersionBundle;
  db: Database;
  /** The shard `db` is: the event's PDF links name it. */
  shard: string;
  env: Bindings;
  config: DeliveryConfig;
  sealer: SecretSealer;
  now: () => Date;
  notice: NoticeDependencies;
}

/** Why an endpoint whose secret no configured SIGNING_SECRET opens gets no delivery. */
const UNREADABLE_SECRET =
  "the endpoint's signing secret is sealed under a SIGNING_SECRET no longer configured; roll it";

/**
 * The endpoint's secrets in plaintext (a previous one only while it opens); null when its current
 * secret opens under no configured SIGNING_SECRET.
 */
async function openSecrets(
  sealer: SecretSealer,
  endpointId: string,
  endpoint: ClaimedDelivery["endpoint"],
) {
  const secret = await sealer.open(endpoint.secret, endpoint.secretKeyId, endpointId);
  if (secret === null) return null;
  const previousSecret =
    endpoint.previousSecret === null
      ? null
      : await sealer.open(endpoint.previousSecret, endpoint.previousSecretKeyId, endpointId);
  return { secret, previousSecret, previousSecretExpiresAt: endpoint.previousSecretExpiresAt };
}

/** What the queue should do with the message. */
type Verdict = { ack: true } | { ack: false; delaySeconds: number };

/** Tells the endpoint's Admins of a change of its health; a failure to tell is only logged. */
async function announce(d: Delivery, change: HealthChange | null): Promise<void> {
  if (!change) return;
  if (change.stage === DISABLED) {
    console.warn(JSON.stringify({ webhook_endpoint_disabled: change.endpointId }));
  }
  await notifyEndpointHealth(d.notice, change, d.config).catch((err) =>
    console.error(JSON.stringify({ error: `notice failed: ${String(err)}` })),
  );
}

/**
 * The endpoint's filter worked out anew under this build's event types, when the stored one was
 * worked out under others (null when it is current, or takes every type).
 */
function refreshedFilter(d: Delivery, claim: ClaimedDelivery): StoredFilter | null {
  const { filter, apiVersion } = claim.endpoint;
  if (filter.enabledEvents === null || filter.eventTypesRevision === EVENT_TYPES_REVISION) {
    return null;
  }
  return storedFilter(d.bundle, apiVersion, storedEventTypes(filter.enabledEvents));
}

/** One attempt of one delivery, recorded; the verdict says whether the queue retries it. */
async function attemptDelivery(d: Delivery, ref: DeliveryRef): Promise<Verdict> {
  const now = d.now();
  const leaseUntil = new Date(now.getTime() + d.config.timeoutMs + 30_000);
  const claimed = await claimDelivery(d.db, ref, {
    now,
    leaseUntil,
    perSecond: d.config.maxPerSecond,
  });
  // Its slot lies in a later second, or the throttle holds it back this one: it waits.
  if (claimed.kind === "throttled") {
    return { ack: false, delaySeconds: Math.max(1, delayUntil(slotSecond(claimed.slot), now)) };
  }
  // Done, superseded, not due, or attempting elsewhere.
  if (claimed.kind === "none") return { ack: true };
  const claim = claimed.delivery;
  if (claim.endpoint.status !== "enabled") {
    await recordAttempt(d.db, ref, null, { status: "failed" }, now, d.config);
    return { ack: true };
  }

  const { event, shaped, shownType } = await eventAsSent(d, claim, now);
  // The endpoint takes the types of its version: the event is matched as its version shows it.
  // A filter worked out under other event types is worked out anew, once, for the fan-out.
  const refreshed = refreshedFilter(d, claim);
  if (!takesEvent(claim.endpoint.filter.enabledEvents, shownType)) {
    await dropDelivery(d.db, ref, refreshed);
    return { ack: true };
  }
  if (refreshed) await storeFilter(d.db, ref.endpoint_id, refreshed);
  const outcome = await send(d, ref, claim.endpoint, { id: event.event_id, shaped }, now);

  const finished = d.now();
  const { next, verdict } = afterOutcome(d, claim, outcome, finished);
  const change = await recordAttempt(
    d.db,
    ref,
    {
      attemptId: `att_${encodeIdSuffix(now.getTime())}`,
      attemptedAt: now.toISOString(),
      ...outcome,
    },
    next,
    finished,
    d.config,
  );
  if (outcome.status !== "succeeded") {
    console.warn(failedAttemptLine(ref, claim.endpoint.url, claim.attempts, outcome, next));
  }
  if (next.status === "failed") await deadLetter(d.env, ref);
  await announce(d, change);
  return verdict;
}

/** The claimed event as its endpoint's version shows it, and the type it shows it under. */
async function eventAsSent(d: Delivery, claim: ClaimedDelivery, now: Date) {
  const { endpoint } = claim;
  const event = await renderEvent(claim.event, {
    signer: signerFor(d.env.SIGNING_SECRET ?? "", d.env.SIGNING_SECRET_PREVIOUS),
    origin: endpoint.apiOrigin,
    now,
    shard: d.shard,
  });
  const ctx = { path: "", status: 200, timestamp: now.toISOString() };
  const shaped = eventInVersion(d.bundle, endpoint.apiVersion, event, ctx);
  // Read as the catalogue reads it (events/event-types.ts): the type shown, else the canonical one.
  const shownType =
    isJsonObject(shaped) && typeof shaped.type === "string" ? shaped.type : event.type;
  return { event, shaped, shownType };
}

/**
 * Posts the event, signed with the endpoint's secrets; a URL the rules refuse, or a secret no
 * configured SIGNING_SECRET opens, fails the attempt without a request.
 */
async function send(
  d: Delivery,
  ref: DeliveryRef,
  endpoint: ClaimedDelivery["endpoint"],
  event: { id: string; shaped: unknown },
  now: Date,
): Promise<PostOutcome> {
  // Opened only for a delivery that is sent: a dropped one needs no secret.
  const secrets = await openSecrets(d.sealer, ref.endpoint_id, endpoint);
  const body = JSON.stringify(event.shaped);
  const problem =
    webhookUrlProblem(endpoint.url, { allowLoopback: d.config.allowLoopback }) ??
    (secrets ? null : UNREADABLE_SECRET);
  if (problem) return { status: "failed", durationMs: 0, responseStatus: null, error: problem };
  const signed = secrets
    ? await signWebhook(signingSecrets(secrets, now), event.id, now, body)
    : {};
  return postWebhook(
    endpoint.url,
    { "content-type": "application/json", "user-agent": USER_AGENT, ...signed },
    body,
    d.config.timeoutMs,
  );
}

/**
 * What follows an attempt that ended at `finished`: done on a success; else a retry after the
 * schedule's delay, or failed for good once the retry window has closed or the delivery has had
 * its `MAX_DELIVERY_ATTEMPTS`.
 */
function afterOutcome(
  d: Delivery,
  claim: ClaimedDelivery,
  outcome: PostOutcome,
  finished: Date,
): { next: DeliveryNext; verdict: Verdict } {
  if (outcome.status === "succeeded")
    return { next: { status: "succeeded" }, verdict: { ack: true } };
  const elapsed = (finished.getTime() - Date.parse(claim.cycleStartedAt)) / 1000;
  // Its attempts in all are capped, whatever queued it again.
  const delay =
    claim.attempts >= MAX_DELIVERY_ATTEMPTS
      ? null
      : nextRetryDelay(d.config.retry, claim.attempts, elapsed);
  if (delay === null) return { next: { status: "failed" }, verdict: { ack: true } };
  return {
    next: {
      status: "pending",
      nextAttemptAt: new Date(finished.getTime() + delay * 1000).toISOString(),
    },
    verdict: { ack: false, delaySeconds: delay },
  };
}

/**
 * The log line of a failed attempt, one per attempt whatever the cause: the endpoint, the attempt,
 * the reason as recorded, and when it is tried again. The URL goes without its query, which may
 * hold a receiver's token.
 */
export function failedAttemptLine(
  ref: DeliveryRef,
  url: string,
  attempt: number,
  outcome: PostOutcome,
  next: DeliveryNext,
): string {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  return JSON.stringify({
    webhook_attempt: outcome.status,
    webhook_endpoint_id: ref.endpoint_id,
    url: parsed ? `${parsed.origin}${parsed.pathname}` : "(not a URL)",
    event_id: ref.event_id,
    attempt,
    reason: outcome.error ?? `endpoint answered HTTP ${outcome.responseStatus}`,
    next_attempt_at: next.status === "pending" ? next.nextAttemptAt : null,
  });
}

/** Keeps a given-up delivery where operators look for them; losing this copy loses no record. */
async function deadLetter(env: Bindings, ref: DeliveryRef): Promise<void> {
  try {
    await env.WEBHOOK_DEAD_LETTERS.send(ref, { contentType: "json" });
  } catch (err) {
    console.error(JSON.stringify({ error: `dead-letter send failed: ${String(err)}` }));
  }
}

/**
 * The queue consumer, shaping events in `bundle`'s versions and telling disabled endpoints'
 * Admins through `notice` (the deployment's mailer and users by default). Each message is worked
 * on the shard it names (its partner's, followed if the partner moved since). Messages of one
 * endpoint are attempted in order, one at a time; different endpoints in parallel. A message
 * that fails unexpectedly (storage down) is retried by the queue with backoff, and dead-lettered
 * by the queue after its `max_retries`.
 */
export function webhookConsumer(
  bundle: VersionBundle,
  notice: (env: Bindings, db: Database, shard: string) => NoticeDependencies = defaultNotice,
) {
  return (batch: MessageBatch<DeliveryRef>, env: Bindings) =>
    deliverBatch(batch, env, bundle, notice);
}

/** The partner's shard a message names (or the first shard, for a message sent before shards). */
async function partnerOf(
  shards: ReturnType<typeof openShards>,
  ref: DeliveryRef,
): Promise<PartnerDatabase | null> {
  const shard = ref.shard ?? FIRST_SHARD;
  if (ref.partner_id !== undefined) {
    return openPartnerDatabase(shards, { shard, partnerId: ref.partner_id });
  }
  const db = shards.open(shard);
  return db ? { db, shard, moving: false } : null;
}

async function deliverBatch(
  batch: MessageBatch<DeliveryRef>,
  env: Bindings,
  bundle: VersionBundle,
  notice: (env: Bindings, db: Database, shard: string) => NoticeDependencies,
): Promise<void> {
  const shards = openShards(env, newQueryStats());
  const config = deliveryConfig(env);
  const sealer = secretSealerOf(env);
  // Each message names its partner's shard; a partner moved since is followed to its new one.
  const byPartner = new Map<string, Message<DeliveryRef>[]>();
  for (const message of batch.messages) {
    const key = `${message.body?.shard ?? FIRST_SHARD} ${message.body?.partner_id ?? ""}`;
    byPartner.set(key, [...(byPartner.get(key) ?? []), message]);
  }
  await Promise.all(
    [...byPartner.values()].map(async (messages) => {
      const retryAll = (delaySeconds: number) => {
        for (const message of messages) message.retry({ delaySeconds });
      };
      // A group holds at least the message that opened it.
      const [first] = messages;
      if (!first) return;
      let partner: PartnerDatabase | null;
      try {
        partner = await partnerOf(shards, first.body);
      } catch (err) {
        console.error(JSON.stringify({ error: `webhook delivery failed: ${String(err)}` }));
        return retryAll(nextRetryDelay(config.retry, first.attempts, 0) ?? 60);
      }
      // A partner that exists nowhere has no delivery left to make.
      if (!partner) {
        for (const message of messages) message.ack();
        return;
      }
      // Its writes are paused while a move copies its data: the attempt waits for the switch,
      // without spending the message's attempts.
      if (partner.moving) return postpone(env.WEBHOOK_DELIVERIES, messages, moveDeferSeconds(env));
      const d: Delivery = {
        bundle,
        db: partner.db,
        shard: partner.shard,
        env,
        config,
        sealer,
        now: () => new Date(),
        notice: notice(env, partner.db, partner.shard),
      };
      await deliverInOrder(d, messages);
    }),
  );
}

/** Messages of one endpoint are attempted in order, one at a time; endpoints in parallel. */
async function deliverInOrder(d: Delivery, messages: readonly Message<DeliveryRef>[]) {
  const byEndpoint = new Map<string, Message<DeliveryRef>[]>();
  for (const message of messages) {
    const key = message.body?.endpoint_id ?? "";
    byEndpoint.set(key, [...(byEndpoint.get(key) ?? []), message]);
  }
  await Promise.all(
    [...byEndpoint.values()].map(async (messages) => {
      for (const message of messages) {
        try {
          const verdict = await attemptDelivery(d, message.body);
          if (verdict.ack) message.ack();
          else message.retry({ delaySeconds: verdict.delaySeconds });
        } catch (err) {
          // A move started meanwhile: its fence refused the attempt's record; after the switch.
          if (isPartnerMoving(err)) {
            await postpone(d.env.WEBHOOK_DELIVERIES, [message], moveDeferSeconds(d.env));
            continue;
          }
          console.error(JSON.stringify({ error: `webhook delivery failed: ${String(err)}` }));
          const delay = nextRetryDelay(d.config.retry, message.attempts, 0) ?? 60;
          message.retry({ delaySeconds: delay });
        }
      }
    }),
  );
}
