// Outgoing mail. Locally, and until a transport is configured, mail goes to an outbox: one log
// line per message (recipient and subject only) and the latest messages kept in memory.
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

/** The latest messages of this isolate's outbox, newest last (local runs and tests read it). */
export const localOutbox: OutgoingMail[] = [];
const OUTBOX_SIZE = 100;

const outboxMailer: Mailer = {
  async send(mail) {
    localOutbox.push(mail);
    if (localOutbox.length > OUTBOX_SIZE) localOutbox.shift();
    console.log(JSON.stringify({ mail: { to: mail.to, subject: mail.subject } }));
  },
};

/** The mailer of a deployment: the outbox locally, a real transport in production. */
export function mailerFor(_env: Bindings): Mailer {
  return outboxMailer;
}
