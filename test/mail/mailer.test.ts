// The Mailer's transports: the outbox keeps mail for local runs; production sends through
// Cloudflare Email Service (a send_email binding) or an HTTP mail API, chosen by MAILER.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../src/app/context";
import app from "../../src/index";
import { httpMailer, mailerFor } from "../../src/mail/mailer";
import { outboxFor } from "../support/dashboard";
import { OPERATOR_TOKEN } from "../support/worker";

const mail = { to: "someone@example.com", subject: "Hello", text: "A link: https://x.test/t" };
const base = env as unknown as Bindings;

describe("mailerFor", () => {
  it("keeps mail in the outbox when MAILER is outbox", async () => {
    const to = `outbox-${crypto.randomUUID()}@example.com`;
    await mailerFor({ ...base, MAILER: "outbox" }).send({ ...mail, to });
    const [kept] = await outboxFor(to);
    expect(kept).toMatchObject({ to, subject: "Hello", text: mail.text });
  });

  it("sends through the MAIL binding when MAILER is cloudflare", async () => {
    const sent: unknown[] = [];
    const binding = { send: async (message: unknown) => void sent.push(message) };
    await mailerFor({
      ...base,
      MAILER: "cloudflare",
      MAIL_FROM: "Dashboard <dash@example.com>",
      MAIL: binding as unknown as SendEmail,
    }).send(mail);
    expect(sent).toEqual([{ from: "Dashboard <dash@example.com>", ...mail }]);
  });

  it("posts JSON with the API key when MAILER is http, and fails without echoing the mail", async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fake = (status: number) =>
      (async (url: string, init: RequestInit) => {
        calls.push({ url, init });
        return new Response(`echo ${init.body}`, { status });
      }) as unknown as typeof fetch;
    const config = {
      ...base,
      MAILER: "http",
      MAIL_API_KEY: "re_secret",
      MAIL_FROM: "d@example.com",
    };
    await httpMailer(config, fake(200)).send(mail);
    expect(calls[0]?.url).toBe("https://api.resend.com/emails");
    expect(calls[0]?.init.headers).toMatchObject({ authorization: "Bearer re_secret" });
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({
      from: "d@example.com",
      to: ["someone@example.com"],
      subject: "Hello",
      text: mail.text,
    });
    const failed = await httpMailer(
      { ...config, MAIL_API_URL: "https://mail.test/send" },
      fake(422),
    )
      .send(mail)
      .catch((e: Error) => e.message);
    expect(calls[1]?.url).toBe("https://mail.test/send");
    expect(failed).toBe("the mail API answered 422");
  });

  it("refuses a missing or unknown MAILER, and a transport without its credentials", () => {
    expect(() => mailerFor({ ...base, MAILER: undefined })).toThrow(/MAILER must be/);
    expect(() => mailerFor({ ...base, MAILER: "smtp" })).toThrow(/MAILER must be/);
    expect(() => mailerFor({ ...base, MAILER: "http", MAIL_API_KEY: undefined })).toThrow(
      /MAIL_API_KEY/,
    );
    expect(() => mailerFor({ ...base, MAILER: "cloudflare", MAIL: undefined })).toThrow(/MAIL/);
  });
});

describe("the outbox route", () => {
  it("exists only while MAILER is outbox: a deployment that sends mail has no outbox to read", async () => {
    const read = async (mailer: string, query = "") => {
      const ctx = createExecutionContext();
      const res = await app.fetch(
        new Request(`http://api.test/operator/v1/outbox${query}`, {
          headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
        }),
        { ...base, MAILER: mailer, OPERATOR_TOKEN },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res.status;
    };
    expect(await read("outbox")).toBe(200);
    expect(await read("http")).toBe(404);
    expect(await read("cloudflare")).toBe(404);
    // `after` is a mail id: anything else is refused.
    for (const after of ["-1", "abc", "1.5"])
      expect(await read("outbox", `?after=${after}`)).toBe(400);
  });
});
