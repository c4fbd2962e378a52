// The mail a partner's Admins get when one of their webhook endpoints is disabled for failing.
import type { Mailer } from "../mail/mailer";

export interface EndpointDisabledNotice {
  partnerId: string;
  environment: string;
  endpointId: string;
  url: string;
  /** The origin it was registered through, which serves the dashboard too. */
  apiOrigin: string;
  /** When the run of failed attempts began. */
  failingSince: string;
  disabledAt: string;
}

export interface NoticeDependencies {
  mailer: Mailer;
  adminEmailsOf(partnerId: string): Promise<string[]>;
}

/** Mails every Admin of the partner; answers how many were told. */
export async function notifyEndpointDisabled(
  deps: NoticeDependencies,
  notice: EndpointDisabledNotice,
): Promise<number> {
  const recipients = [...new Set(await deps.adminEmailsOf(notice.partnerId))];
  const subject = `Webhook endpoint disabled (${notice.environment}): ${notice.url}`;
  const text = [
    `Your ${notice.environment} webhook endpoint ${notice.endpointId} (${notice.url}) was disabled`,
    `at ${notice.disabledAt}: every delivery to it has failed since ${notice.failingSince}.`,
    "",
    "No further events are sent to it. Events stay listable for 30 days (GET /v2/events) and each",
    "attempt is listed under GET /v2/events/{event_id}/delivery_attempts. Once the endpoint",
    `answers 2xx again, enable it (POST /v2/webhook_endpoints/${notice.endpointId}/enable) and`,
    "re-send the events you missed (POST /v2/events/{event_id}/resend), or do both from its",
    "page in the dashboard, which lists every attempt:",
    `${notice.apiOrigin}/dashboard/${notice.environment}/webhooks/${notice.endpointId}`,
  ].join("\n");
  for (const to of recipients) await deps.mailer.send({ to, subject, text });
  return recipients.length;
}
