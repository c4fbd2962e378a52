// Outgoing mail. Until a transport is configured, mail goes to the outbox: one log line per
// message, with its recipient and subject (never its body, which may carry links).
import type { Bindings } from "./context";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

const outboxMailer: Mailer = {
  async send(mail) {
    console.log(JSON.stringify({ mail: { to: mail.to, subject: mail.subject } }));
  },
};

/** The mailer of a deployment: the outbox locally, a real transport in production. */
export function mailerFor(_env: Bindings): Mailer {
  return outboxMailer;
}
