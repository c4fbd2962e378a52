// The render queue: one message per statement document to render. The consumer reads the
// statement with its account, customer and product, has the renderer Worker draw it, and stores it
// exactly as an upload is stored (attach.ts), which announces `statement.pdf_available`. A failed
// attempt is retried with backoff through the queue until the retry window closes, then the render
// is marked failed, where the operator sees it, and dead-lettered; input the renderer cannot draw
// (a RangeError) fails at once. At least once, and idempotent: a document is stored under its
// content hash, and only by the render still pending in the message's generation.
import type { Bindings } from "../app/context";
import { moveDeferSeconds, postpone } from "../app/queue-deferral";
import { enqueueMessages } from "../app/queue-send";
import { type Database, newQueryStats } from "../db/client";
import { documentStoreOf } from "../db/jurisdiction-stores";
import { openPartnerDatabase, openShards } from "../db/shards";
import { type DocumentStore, isPartnerMoving } from "../db/storage";
import {
  nextRetryDelay,
  positiveSetting as positive,
  type RetryPolicy,
} from "../domain/retry-schedule";
import { FIRST_SHARD } from "../domain/shard-code";
import { storeStatementDocument } from "./attach";
import { imageProblem } from "./logo-image";
import { MAX_LOGO_PIXELS } from "./presentation";
import {
  type ProductLook,
  type RenderJob,
  renderInputOf,
  type StatementRenderer,
} from "./render-input";
import { type RenderRef, readRenderJob, recordRenderFailure } from "./render-store";

/** The queue's name (wrangler.toml), by which the Worker's one consumer tells it apart. */
export const RENDER_QUEUE = "statement-renders";

/** Render retries, from `[vars]` (wrangler.toml), so test runs can shrink them. */
export function renderRetryPolicy(env: Bindings): RetryPolicy {
  return {
    baseSeconds: positive(env.RENDER_RETRY_BASE_SECONDS, 10),
    windowSeconds: positive(env.RENDER_RETRY_WINDOW_SECONDS, 24 * 3600),
  };
}

/** Hands new renders to the queue; a failure is logged, and the sweep sends them later. */
export function enqueueRenders(
  env: Bindings,
  renders: readonly RenderRef[],
  requestId: string,
): Promise<void> {
  return enqueueMessages(env.STATEMENT_RENDERS, renders, requestId, "render");
}

interface Rendering {
  env: Bindings;
  renderer: StatementRenderer;
  retry: RetryPolicy;
  now: () => Date;
}

/**
 * How long one message's attempt may take (a render is a fraction of a second): one that has not
 * settled by then is retried like any unexpected failure, so that no I/O that never answers can
 * hold a batch, and with it the queue's messages, for ever. Miniflare dispatches a queue's batches
 * one at a time, so locally a batch that never settles stops the whole queue.
 */
export const RENDER_ATTEMPT_DEADLINE_MS = 120_000;

/**
 * What the queue should do with the message: done, retried after a delay, or postponed while its
 * partner is being moved (sent again, no attempt spent).
 */
type Verdict = { ack: true } | { ack: false; delaySeconds: number } | { ack: false; moving: true };

// Logos are stored under their content hash, so a copy read once stays right: the isolate keeps
// the few it renders with instead of reading one for every statement.
const logos = new Map<string, Uint8Array>();
const LOGOS_KEPT = 16;

async function logoOf(documents: DocumentStore, product: ProductLook): Promise<Uint8Array | null> {
  const key = product.logoKey;
  if (key === null) return null;
  const kept = logos.get(key);
  if (kept) return kept;
  const object = await documents.get(key);
  if (!object) throw new Error(`the product's logo ${key} is not in the bucket`);
  const bytes = new Uint8Array(await object.arrayBuffer());
  // A logo stored before uploads were checked as they are now never reaches the renderer.
  const problem = await imageProblem(bytes, product.logoMediaType ?? "image/png", MAX_LOGO_PIXELS);
  if (problem) throw new RangeError(`the product's logo cannot be drawn: ${problem}`);
  if (logos.size >= LOGOS_KEPT) {
    const oldest = logos.keys().next();
    if (!oldest.done) logos.delete(oldest.value);
  }
  logos.set(key, bytes);
  return bytes;
}

/** `work`, or a rejection once it has taken `ms` (the work itself goes on, unawaited). */
function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the attempt did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** A failure as the operator reads it: the error's kind and message, never a stack. */
function describeFailure(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.slice(0, 500);
}

/** One attempt at the render `ref` names: stored, retried later, or given up. */
async function renderOne(r: Rendering, ref: RenderRef): Promise<Verdict> {
  // The shard the message names, followed if the partner has moved since.
  const shards = openShards(r.env, newQueryStats());
  const partner = await openPartnerDatabase(shards, {
    shard: ref.shard ?? FIRST_SHARD,
    partnerId: ref.partner_id,
  });
  if (!partner) return { ack: true }; // the partner is on no shard
  // Its writes are paused while a move copies its data: the render waits for the switch, undrawn.
  if (partner.moving) return { ack: false, moving: true };
  const { db, shard } = partner;
  const job = await readRenderJob(db, ref);
  if (!job) return { ack: true }; // rendered, superseded, failed, or of an earlier request
  // The bucket of the partner's jurisdiction: its logo is read there, its document stored there.
  const documents = documentStoreOf(r.env, shard);
  try {
    const bytes = await r.renderer.render(renderInputOf(job, await logoOf(documents, job.product)));
    const deps = {
      db,
      shard,
      documents,
      webhooks: r.env.WEBHOOK_DELIVERIES,
      requestId: `render:${ref.statement_id}`,
      now: r.now(),
    };
    await storeStatementDocument(deps, ref.statement_id, bytes, { kind: "render", ref });
    return { ack: true };
  } catch (err) {
    // A move started meanwhile: its fence refused the document; drawn again after the switch.
    if (isPartnerMoving(err)) return { ack: false, moving: true };
    return failedAttempt(r, db, ref, job, err);
  }
}

/** Records a failed attempt; the verdict retries it after its backoff, or gives it up. */
async function failedAttempt(
  r: Rendering,
  db: Database,
  ref: RenderRef,
  job: RenderJob,
  err: unknown,
): Promise<Verdict> {
  const now = r.now();
  const attempts = job.attempts + 1;
  const error = describeFailure(err);
  const elapsed = (now.getTime() - Date.parse(job.requestedAt)) / 1000;
  // Input the renderer cannot draw fails the same way every time: no retry.
  const delay = err instanceof RangeError ? null : nextRetryDelay(r.retry, attempts, elapsed);
  const line = { statement_render: "", statement_id: ref.statement_id, attempts, error };
  if (delay === null) {
    const completedAt = now.toISOString();
    await recordRenderFailure(db, ref, { status: "failed", attempts, completedAt, error });
    console.warn(JSON.stringify({ ...line, statement_render: "failed" }));
    await deadLetter(r.env, ref);
    return { ack: true };
  }
  const nextAttemptAt = new Date(now.getTime() + delay * 1000).toISOString();
  await recordRenderFailure(db, ref, { status: "pending", attempts, nextAttemptAt, error });
  console.warn(
    JSON.stringify({ ...line, statement_render: "retrying", next_attempt_at: nextAttemptAt }),
  );
  return { ack: false, delaySeconds: delay };
}

/** Keeps a given-up render where operators look for them; losing this copy loses no record. */
async function deadLetter(env: Bindings, ref: RenderRef): Promise<void> {
  try {
    await env.STATEMENT_RENDER_DEAD_LETTERS.send(ref, { contentType: "json" });
  } catch (err) {
    console.error(JSON.stringify({ error: `render dead-letter send failed: ${String(err)}` }));
  }
}

/**
 * The render queue's consumer, drawing with `rendererOf(env)` (the renderer Worker by default).
 * The messages of a batch render side by side. A message whose partner is being moved waits for
 * the switch without spending its attempts (sent again, delayed). A message that fails unexpectedly (storage down
 * before its failure could be recorded) is retried by the queue with backoff, and dead-lettered
 * by the queue after its `max_retries`.
 */
export function renderConsumer(
  rendererOf: (env: Bindings) => StatementRenderer = (env) => env.STATEMENT_RENDERER,
  deadlineMs = RENDER_ATTEMPT_DEADLINE_MS,
) {
  return async (batch: MessageBatch<RenderRef>, env: Bindings): Promise<void> => {
    const r: Rendering = {
      env,
      renderer: rendererOf(env),
      retry: renderRetryPolicy(env),
      now: () => new Date(),
    };
    const wait = moveDeferSeconds(env);
    await Promise.all(
      batch.messages.map(async (message) => {
        try {
          const verdict = await withinDeadline(renderOne(r, message.body), deadlineMs);
          if (verdict.ack) message.ack();
          else if ("moving" in verdict) await postpone(env.STATEMENT_RENDERS, [message], wait);
          else message.retry({ delaySeconds: verdict.delaySeconds });
        } catch (err) {
          if (isPartnerMoving(err)) return postpone(env.STATEMENT_RENDERS, [message], wait);
          console.error(
            JSON.stringify({
              statement_render: "error",
              statement_id: message.body?.statement_id,
              error: describeFailure(err),
            }),
          );
          message.retry({ delaySeconds: nextRetryDelay(r.retry, message.attempts, 0) ?? 60 });
        }
      }),
    );
  };
}
