// The request log loses nothing to size: a queue message is limited in bytes (128 KB), and a
// record of multi-byte or invalid-UTF-8 text takes up to three times as many bytes as its length.
// Records are sized as the queue sizes them, a text field too large is kept cut with a marker,
// and a message the queue refuses for its size is split, so that no record takes another down.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bundle } from "../../src/bundle";
import type { RequestLogRecord } from "../../src/domain/request-log";
import { jsonTextBytes } from "../../src/domain/request-log";
import { createApp } from "../../src/index";
import { executionContext } from "../support/app-env";
import { seedAccount } from "../support/fixtures";
import { allLogged, newRequestId, requestIdOf } from "../support/request-logs";
import { BASE } from "../support/worker";

/** Text of three-byte characters, longer than the log keeps of a body. */
const MULTI_BYTE = "統計".repeat(6_000);
/** Bytes that are not UTF-8: each decodes to U+FFFD, three bytes in the message. */
const NOT_UTF8 = new Uint8Array(12_000).fill(0xff);
/** Control characters: each takes a six-byte `\u00XX` escape in the message. */
const CONTROL = "\u0001".repeat(9_000);

/** The bodies of one partner's writes: multi-byte JSON, bytes that are not UTF-8, escapes. */
function bodiesOf(): { body: BodyInit; type: string }[] {
  return [
    { body: JSON.stringify({ partner_customer_id: MULTI_BYTE }), type: "application/json" },
    { body: NOT_UTF8, type: "application/json" },
    { body: CONTROL, type: "text/plain" },
  ];
}

/** A write of `body` to the fixture's customer link, through `service`. */
async function link(
  service: ReturnType<typeof createApp>,
  f: { key: string; customerId: string },
  sent: { body: BodyInit; type: string },
  queues: Partial<Env>,
  ctx: ExecutionContext,
): Promise<Response> {
  return await service.fetch(
    new Request(`${BASE}/v2/customers/${f.customerId}/link`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${f.key}`,
        "content-type": sent.type,
        "x-request-id": newRequestId(),
        "user-agent": `sdk/${"x".repeat(600)}`,
      },
      body: sent.body,
    }),
    { ...env, ...queues },
    ctx,
  );
}

/** The UTF-8 bytes of text, as the queue counts a message. */
function utf8(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

describe("request-log records sized in bytes", () => {
  it("finds every request of every partner whose bodies are multi-byte or not UTF-8", {
    timeout: 60_000,
  }, async () => {
    const partners = await Promise.all([seedAccount(), seedAccount(), seedAccount()]);
    // One window for every request: their records would share one message.
    const gathering = createApp(bundle, { requestLogGatherMs: 1_000 });
    const ctx = executionContext();
    const responses = await Promise.all(
      partners.flatMap((f) => bodiesOf().map((sent) => link(gathering, f, sent, {}, ctx))),
    );
    await ctx.settled();
    for (const res of responses) expect(res.status).toBe(400);
    const rows = await allLogged(responses.map(requestIdOf));
    expect(new Set(rows.map((r) => r.partner_id))).toEqual(
      new Set(partners.map((f) => f.partnerId)),
    );
    for (const row of rows) {
      // Each body kept is cut to its bytes in the message, saying how much was left out.
      const body = row.request_body ?? "";
      expect(body).toMatch(/… \(cut: \d+ more bytes\)$/);
      expect(jsonTextBytes(body)).toBeLessThanOrEqual(8 * 1024 + 40);
      expect(row.user_agent).toMatch(/^sdk\/x+… \(cut: \d+ more bytes\)$/);
    }
    const invalid = rows.filter((r) => r.request_body?.startsWith("\uFFFD"));
    expect(invalid).toHaveLength(partners.length);
  });

  it("splits a message the queue refuses for its size: every record still arrives", {
    timeout: 30_000,
  }, async () => {
    const f = await seedAccount();
    const sent: string[] = [];
    // A queue that takes less than the real one: only a record on its own fits.
    const queue = {
      async send(body: string) {
        const bytes = utf8(body);
        if (bytes > 30_000) throw new Error("Unknown Internal Error (15000)");
        sent.push(body);
      },
    } as unknown as Queue;
    const gathering = createApp(bundle, { requestLogGatherMs: 500 });
    const ctx = executionContext();
    const queues = { REQUEST_LOGS: queue, REQUEST_LOGS_EU: queue };
    const responses = await Promise.all(
      [...bodiesOf(), ...bodiesOf()].map((body) => link(gathering, f, body, queues, ctx)),
    );
    await ctx.settled();
    const ids = sent.flatMap((m) => (JSON.parse(m) as RequestLogRecord[]).map((r) => r.request_id));
    expect(ids.sort()).toEqual(responses.map(requestIdOf).sort());
    for (const message of sent) expect(utf8(message)).toBeLessThanOrEqual(30_000);
  });
});
