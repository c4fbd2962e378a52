// When a render fails: retried with backoff through the queue, recorded where the operator sees it,
// marked failed and dead-lettered once its retry window (3 s in the test config) has passed, failed
// at once for input the renderer cannot draw, and rendered again on the operator's request. The
// consumer is driven here with a renderer that fails as told; the sweep re-sends lost messages.
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { StatementRenderer } from "../../src/documents/render-input";
import { renderConsumer } from "../../src/documents/render-queue";
import type { RenderRef } from "../../src/documents/render-store";
import worker from "../../src/index";
import { api, type ErrorBody, expectJson, operator, type StatementList } from "../support/api";
import { eventually } from "../support/eventually";
import {
  type Fixture,
  importData,
  monthlyStatement,
  pdfBytes,
  seedAccount,
  statementsPath,
  uniqueId,
} from "../support/fixtures";
import { partnerDatabase, shardOf } from "../support/shards";

interface RenderJson {
  statement_id: string;
  environment: string;
  status: string;
  attempts: number;
  requested_at: string;
  next_attempt_at: string | null;
  completed_at: string | null;
  error: string | null;
}

async function renders(f: Fixture, status: string): Promise<RenderJson[]> {
  const res = await operator("GET", `/partners/${f.partnerId}/statement-renders?status=${status}`);
  return (await expectJson<{ data: RenderJson[] }>(res, 200)).data;
}

/**
 * A statement of an uploading product (so the real queue renders nothing), with a pending render
 * written as the import writes one, asked for `ageSeconds` ago. Answers the message for it.
 */
async function pendingRender(f: Fixture, ageSeconds = 0): Promise<RenderRef> {
  const statement = monthlyStatement(f.accountId, 1, uniqueId("st"));
  await importData({ statements: [statement] });
  const at = new Date(Date.now() - ageSeconds * 1000).toISOString();
  const db = await partnerDatabase(f.partnerId);
  await db
    .prepare(
      `INSERT INTO statement_renders (statement_id, partner_id, environment, merchant_key, status,
       generation, attempts, requested_at, next_attempt_at) VALUES (?, ?, 'sandbox', ?, 'pending',
       0, 0, ?, ?)`,
    )
    .bind(statement.statement_id, f.partnerId, f.merchantKey, at, at)
    .run();
  return {
    shard: await shardOf(f.partnerId),
    partner_id: f.partnerId,
    environment: "sandbox",
    statement_id: statement.statement_id,
    generation: 0,
  };
}

/** A renderer that fails every call with `error`, counting them. */
function failingRenderer(error: Error): StatementRenderer & { calls: number } {
  return {
    calls: 0,
    render() {
      this.calls += 1;
      return Promise.reject(error);
    },
  };
}

/** What the consumer told the queue about a message: acked, or retried after some seconds. */
interface Told {
  acked: boolean;
  retriedAfter: number | null;
  deadLetters: unknown[];
  /** Messages sent to the render queue again (a postponed render), with their delays. */
  sentAgain?: { body: unknown; delaySeconds?: number }[];
}

/** Runs the consumer on one message (delivered `attempts` times); answers what it told the queue. */
async function consume(ref: RenderRef, renderer?: StatementRenderer, attempts = 1): Promise<Told> {
  const told: Told = { acked: false, retriedAfter: null, deadLetters: [] };
  const sentAgain: NonNullable<Told["sentAgain"]> = [];
  const message = {
    id: uniqueId("msg"),
    timestamp: new Date(),
    attempts,
    body: ref,
    ack: () => {
      told.acked = true;
    },
    retry: (options?: { delaySeconds?: number }) => {
      told.retriedAfter = options?.delaySeconds ?? 0;
    },
  };
  const batch = {
    queue: "statement-renders",
    messages: [message],
  } as unknown as MessageBatch<RenderRef>;
  const bindings = {
    ...env,
    STATEMENT_RENDER_DEAD_LETTERS: {
      send: async (body: unknown) => {
        told.deadLetters.push(body);
      },
    },
    STATEMENT_RENDERS: {
      sendBatch: async (messages: { body: unknown; delaySeconds?: number }[]) => {
        sentAgain.push(...messages.map(({ body, delaySeconds }) => ({ body, delaySeconds })));
      },
    },
  } as unknown as typeof env;
  await renderConsumer(renderer ? () => renderer : undefined)(batch, bindings);
  return sentAgain.length > 0 ? { ...told, sentAgain } : told;
}

async function hasPdf(f: Fixture): Promise<boolean> {
  const res = await api(statementsPath(f), { key: f.key, version: "latest" });
  const body = await expectJson<StatementList>(res, 200);
  return body.data.every((row) => row.pdf !== undefined);
}

describe("failed renders", { timeout: 30_000 }, () => {
  it("are retried with backoff, and the operator sees why", async () => {
    const f = await seedAccount();
    const ref = await pendingRender(f);
    const renderer = failingRenderer(new Error("renderer unavailable"));
    const told = await consume(ref, renderer);
    expect(renderer.calls).toBe(1);
    // Base 1 s (test config), equal jitter: the first wait is 1 s.
    expect(told).toEqual({ acked: false, retriedAfter: 1, deadLetters: [] });
    const [pending] = await renders(f, "pending");
    expect(pending).toMatchObject({
      statement_id: ref.statement_id,
      environment: "sandbox",
      status: "pending",
      attempts: 1,
      completed_at: null,
      error: "Error: renderer unavailable",
    });
    expect(Date.parse(pending?.next_attempt_at ?? "")).toBeGreaterThan(Date.now());

    // The second failure waits longer: the wait doubles (1 s → 1..2 s).
    const second = await consume(ref, renderer, 2);
    expect(second.retriedAfter).toBeGreaterThanOrEqual(1);
    expect(second.retriedAfter).toBeLessThanOrEqual(2);
    expect((await renders(f, "pending"))[0]?.attempts).toBe(2);
  });

  it("are marked failed and dead-lettered once the retry window has passed", async () => {
    const f = await seedAccount();
    const ref = await pendingRender(f, 10);
    const told = await consume(ref, failingRenderer(new Error("timed out")));
    expect(told).toEqual({ acked: true, retriedAfter: null, deadLetters: [ref] });
    const [failed] = await renders(f, "failed");
    expect(failed).toMatchObject({
      statement_id: ref.statement_id,
      status: "failed",
      attempts: 1,
      next_attempt_at: null,
      error: "Error: timed out",
    });
    expect(failed?.completed_at).not.toBeNull();
    expect(await hasPdf(f)).toBe(false);
  });

  it("fail at once for input the renderer cannot draw", async () => {
    const f = await seedAccount();
    const ref = await pendingRender(f);
    const renderer = failingRenderer(new RangeError("accent_colour must be #RRGGBB"));
    expect(await consume(ref, renderer)).toEqual({
      acked: true,
      retriedAfter: null,
      deadLetters: [ref],
    });
    expect((await renders(f, "failed"))[0]).toMatchObject({
      statement_id: ref.statement_id,
      attempts: 1,
      error: "RangeError: accent_colour must be #RRGGBB",
    });
  });

  it("wait, unrendered, while their partner's data is being moved", async () => {
    const f = await seedAccount();
    const ref = await pendingRender(f);
    const db = await partnerDatabase(f.partnerId);
    const moving = (to: string | null) =>
      db
        .prepare("UPDATE partners SET moving_to = ? WHERE partner_id = ?")
        .bind(to, f.partnerId)
        .run();
    await moving("elsewhere");
    const renderer = failingRenderer(new Error("renderer unavailable"));
    try {
      // Its writes are paused until the switch: the render is not drawn, only postponed, sent
      // again for later without spending an attempt of its message (MOVE_DEFER_SECONDS).
      expect(await consume(ref, renderer, 99)).toEqual({
        acked: true,
        retriedAfter: null,
        deadLetters: [],
        sentAgain: [{ body: ref, delaySeconds: Number(env.MOVE_DEFER_SECONDS) }],
      });
      expect(renderer.calls).toBe(0);
      expect((await renders(f, "pending"))[0]).toMatchObject({ attempts: 0, error: null });
    } finally {
      await moving(null);
    }
    await consume(ref, renderer);
    expect(renderer.calls).toBe(1);
  });

  it("render again on the operator's request, and the failure leaves the listing", async () => {
    const f = await seedAccount();
    const ref = await pendingRender(f, 10);
    await consume(ref, failingRenderer(new Error("renderer unavailable")));
    expect(await renders(f, "failed")).toHaveLength(1);

    const asked = await operator("POST", `/statements/${ref.statement_id}/render`);
    expect(await expectJson(asked, 202)).toEqual({
      statement_id: ref.statement_id,
      status: "pending",
      generation: 1,
    });
    // The real queue renders it with the renderer Worker.
    await eventually(
      () => renders(f, "rendered"),
      (rows) => rows.length === 1,
    );
    expect(await renders(f, "failed")).toEqual([]);
    expect(await hasPdf(f)).toBe(true);
  });

  it("answer 404 for a re-render of a statement that does not exist", async () => {
    const res = await operator("POST", "/statements/st_never/render");
    expect(res.status).toBe(404);
  });

  it("leave a message of an earlier request, or a rendered statement, alone", async () => {
    const f = await seedAccount();
    const ref = await pendingRender(f);
    const renderer = failingRenderer(new Error("must not be called"));
    // A newer request supersedes generation 0.
    const db = await partnerDatabase(f.partnerId);
    await db
      .prepare("UPDATE statement_renders SET generation = 1 WHERE statement_id = ?")
      .bind(ref.statement_id)
      .run();
    expect((await consume(ref, renderer)).acked).toBe(true);
    expect(renderer.calls).toBe(0);
    // Rendered twice (a message delivered twice): one document, announced once.
    const current = { ...ref, generation: 1 };
    await consume(current);
    await consume(current);
    expect(await hasPdf(f)).toBe(true);
    const objects = await env.PDFS.list({ prefix: `statements/${ref.statement_id}/` });
    expect(objects.objects).toHaveLength(1);
    const events = await db
      .prepare("SELECT type FROM events WHERE statement_id = ? ORDER BY type")
      .bind(ref.statement_id)
      .all<{ type: string }>();
    expect(events.results.map((e) => e.type)).toEqual([
      "statement.created",
      "statement.pdf_available",
    ]);
  });

  it("never store over an upload that came first", async () => {
    const f = await seedAccount();
    const ref = await pendingRender(f);
    const upload = pdfBytes("uploaded first");
    const res = await operator("PUT", `/statements/${ref.statement_id}/pdf`, upload, {
      "content-type": "application/pdf",
    });
    expect(res.status).toBe(204);
    expect((await consume(ref)).acked).toBe(true);
    expect((await renders(f, "superseded")).map((r) => r.statement_id)).toEqual([ref.statement_id]);
    const objects = await env.PDFS.list({ prefix: `statements/${ref.statement_id}/` });
    expect(objects.objects).toHaveLength(1);
  });

  it("are sent again by the five-minute sweep when their message was lost", async () => {
    const f = await seedAccount();
    const ref = await pendingRender(f, 600);
    await worker.scheduled(
      createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }),
      env,
    );
    await eventually(
      () => renders(f, "rendered"),
      (rows) => rows.length === 1,
    );
    expect((await renders(f, "rendered"))[0]?.statement_id).toBe(ref.statement_id);
  });

  it("list 400 for an unknown status or environment, and 404 for an unknown partner", async () => {
    const f = await seedAccount();
    const bad = await operator("GET", `/partners/${f.partnerId}/statement-renders?status=lost`);
    expect(bad.status).toBe(400);
    const env2 = await operator("GET", `/partners/${f.partnerId}/statement-renders?environment=x`);
    expect((await expectJson<ErrorBody>(env2, 400)).error).toMatchObject({
      param: "environment",
      details: ['environment must be "sandbox" or "production"'],
    });
    const unknown = await operator("GET", "/partners/p_never/statement-renders");
    expect(unknown.status).toBe(404);
  });
});
