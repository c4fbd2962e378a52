// The mail a partner's Admins get as one of their webhook endpoints fails: when it starts failing,
// a day before it would be disabled, and when it is disabled. Each says what is happening, what
// happens next, and what to do, with the endpoint's dashboard page.
import type { Bindings } from "../app/context";
import type { Database } from "../db/client";
import { adminEmailsOf } from "../db/users";
import { withoutControls } from "../domain/webhook-url";
import { type Mailer, mailerOfShard } from "../mail/mailer";
import {
  DISABLE_SOON,
  DISABLED,
  FAILING,
  type HealthChange,
  type HealthPolicy,
} from "./endpoint-health";

export interface NoticeDependencies {
  mailer: Mailer;
  adminEmailsOf(partnerId: string): Promise<string[]>;
}

/**
 * Who hears of a failing endpoint: the deployment's mailer (as it mails users of shard `shard`'s
 * partners), to the partner's Admins.
 */
export function defaultNotice(env: Bindings, db: Database, shard: string): NoticeDependencies {
  return {
    mailer: mailerOfShard(env, shard),
    adminEmailsOf: (partnerId) => adminEmailsOf(db, partnerId),
  };
}

/** A span of seconds in the largest whole unit that fits it: "1 day", "2 hours", "3 seconds". */
export function spanOf(seconds: number): string {
  for (const [unit, length] of [
    ["day", 86_400],
    ["hour", 3600],
    ["minute", 60],
  ] as const) {
    if (seconds >= length && seconds % length === 0) {
      const n = seconds / length;
      return `${n} ${unit}${n === 1 ? "" : "s"}`;
    }
  }
  return `${seconds} second${seconds === 1 ? "" : "s"}`;
}

function disablesAt(change: HealthChange, policy: HealthPolicy): string {
  return new Date(
    Date.parse(change.failingSince) + policy.disableAfterSeconds * 1000,
  ).toISOString();
}

/** The subject and text of the notice of `change`. */
export function healthNotice(
  change: HealthChange,
  policy: HealthPolicy,
): { subject: string; text: string } {
  const { environment: env, endpointId: id } = change;
  // A URL is stored without control characters; one stored before that rule still starts no
  // new line of the subject or the text.
  const url = withoutControls(change.url);
  const page = `${change.apiOrigin}/dashboard/${env}/webhooks/${id}`;
  const run =
    `every delivery to it has failed since ${change.failingSince} ` +
    `(${change.failureStreak} attempt${change.failureStreak === 1 ? "" : "s"} in a row).`;
  switch (change.stage) {
    case FAILING:
      return {
        subject: `Webhook endpoint failing (${env}): ${url}`,
        text: [
          `Your ${env} webhook endpoint ${id} (${url}) is failing:`,
          run,
          "",
          "Deliveries are retried with backoff, so nothing is lost while it recovers. If every",
          `attempt keeps failing, it will be disabled at ${disablesAt(change, policy)}.`,
          "Each attempt and the reason it failed are listed on its page in the dashboard:",
          page,
        ].join("\n"),
      };
    case DISABLE_SOON:
      return {
        subject:
          `Webhook endpoint will be disabled in ${spanOf(policy.disableWarningSeconds)} ` +
          `(${env}): ${url}`,
        text: [
          `Your ${env} webhook endpoint ${id} (${url}) will be disabled at`,
          `${disablesAt(change, policy)} unless a delivery to it succeeds before then:`,
          run,
          "",
          "Once disabled it gets no further events. Fix the receiver to answer 2xx and the",
          "deliveries still being retried go through. Each attempt and its reason are on its page:",
          page,
        ].join("\n"),
      };
    case DISABLED:
      return {
        subject: `Webhook endpoint disabled (${env}): ${url}`,
        text: [
          `Your ${env} webhook endpoint ${id} (${url}) was disabled`,
          `at ${change.disabledAt}: ${run}`,
          "",
          "No further events are sent to it. Events stay listable for 30 days (GET /v2/events) and",
          "each attempt is listed under GET /v2/events/{event_id}/delivery_attempts. Once the",
          `endpoint answers 2xx again, enable it (POST /v2/webhook_endpoints/${id}/enable)`,
          "and recover every event it missed, in order, with one call:",
          `POST /v2/webhook_endpoints/${id}/recover {"since":"${change.failingSince}"}`,
          "or do both from its page in the dashboard, which lists every attempt:",
          page,
        ].join("\n"),
      };
  }
}

/** Mails every Admin of the partner the notice of `change`; answers how many were told. */
export async function notifyEndpointHealth(
  deps: NoticeDependencies,
  change: HealthChange,
  policy: HealthPolicy,
): Promise<number> {
  const recipients = [...new Set(await deps.adminEmailsOf(change.partnerId))];
  const { subject, text } = healthNotice(change, policy);
  for (const to of recipients) await deps.mailer.send({ to, subject, text });
  return recipients.length;
}
