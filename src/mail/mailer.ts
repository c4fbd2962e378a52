// Outgoing mail of the dashboard (sign-in links, invitations), behind one small interface. Local
// runs and tests keep mail in an outbox; a deployment sends it through Cloudflare Email Service or
// an HTTP mail API, chosen by MAILER, and keeps none of it.
import type { Bindings } from "../app/context";
import { requiredKeyedAddress } from "../app/directory-address";
import { openDatabase } from "../db/client";
import { shardBinding, shardJurisdiction } from "../db/shards";
import { storeMail } from "./outbox";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * Mail to users of a partner with a jurisdiction: the partner's shard, where the local outbox
   * keeps it, and the address's keyed hash, all the directory may hold of it. Mailers that send
   * keep nothing, and need neither.
   */
  residency?: { shard: string; recipientHash: string };
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

const DEFAULT_FROM = "Card Statements Dashboard <dashboard@localhost>";
const DEFAULT_MAIL_API_URL = "https://api.resend.com/emails";

/**
 * Keeps mail in the directory database (a jurisdictional partner's on its shard) and prints one
 * line per mail with its links (what `npm start` shows), for local runs only: it holds live
 * sign-in links. It stands in for a mail service: no deployment keeps mail.
 */
function outboxMailer(env: Bindings): Mailer {
  return {
    async send(mail) {
      const directory = openDatabase(env.DIRECTORY).db;
      const residency = mail.residency;
      if (residency) {
        const shard = shardBinding(env, residency.shard);
        if (!shard) throw new Error(`no shard ${residency.shard} to keep mail on`);
        const kept = { ...residency, db: openDatabase(shard).db };
        await storeMail(directory, mail, new Date(), kept);
      } else {
        await storeMail(directory, mail, new Date());
      }
      const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
      console.log(`[outbox] To: ${mail.to} · ${mail.subject} · ${links.join(" ")}`);
    },
  };
}

function cloudflareMailer(env: Bindings): Mailer {
  const binding = env.MAIL;
  if (!binding) throw new Error("MAILER is cloudflare but the MAIL send_email binding is missing");
  return {
    async send(mail) {
      await binding.send({
        from: env.MAIL_FROM ?? DEFAULT_FROM,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html === undefined ? {} : { html: mail.html }),
      });
    },
  };
}

/** A JSON mail API in Resend's shape (`from`, `to[]`, `subject`, `text`, `html`), Bearer key. */
export function httpMailer(env: Bindings, send: typeof fetch = fetch): Mailer {
  const key = env.MAIL_API_KEY;
  if (!key) throw new Error("MAILER is http but MAIL_API_KEY is not set");
  return {
    async send(mail) {
      const res = await send(env.MAIL_API_URL || DEFAULT_MAIL_API_URL, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          from: env.MAIL_FROM ?? DEFAULT_FROM,
          to: [mail.to],
          subject: mail.subject,
          text: mail.text,
          ...(mail.html === undefined ? {} : { html: mail.html }),
        }),
      });
      // The status only: the request held a sign-in link, and the answer may quote it.
      if (!res.ok) throw new Error(`the mail API answered ${res.status}`);
    },
  };
}

/** The mailer MAILER names; throws (before any mail is built) when it is missing or unknown. */
export function mailerFor(env: Bindings): Mailer {
  switch (env.MAILER) {
    case "outbox":
      return outboxMailer(env);
    case "cloudflare":
      return cloudflareMailer(env);
    case "http":
      return httpMailer(env);
    default:
      throw new Error(
        `MAILER must be outbox, cloudflare or http (got ${JSON.stringify(env.MAILER)})`,
      );
  }
}

/**
 * `mailer` (the deployment's by default) as it mails users of shard `shard`'s partners: on a shard
 * with a jurisdiction, each mail says where it may be kept (`residency`), so that the local
 * outbox keeps it on that shard.
 */
export function mailerOfShard(env: Bindings, shard: string, mailer = mailerFor(env)): Mailer {
  if (shardJurisdiction(env, shard) === "none") return mailer;
  return {
    send: async (mail) =>
      mailer.send({
        ...mail,
        residency: { shard, recipientHash: await requiredKeyedAddress(env, mail.to) },
      }),
  };
}
