// Idempotency-Key on partner writes, POST, PUT and DELETE alike (Stripe's semantics): the same key from the same API key with
// the same request within 24 hours replays the first response, marked `Idempotent-Replayed: true`,
// without running again; with another request it is refused (422), and while the first still runs,
// too (409). Another API key sending the same Idempotency-Key runs as a request of its own.
import type { SQL } from "drizzle-orm";
import type { Context, MiddlewareHandler, Next } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  completeKey,
  type IdempotencyRow,
  isLeaseLost,
  purgeExpiredIdempotencyKeys,
  releaseKey,
  renewKey,
  reserveKey,
} from "../db/idempotency";
import { randomBase62 } from "../domain/encoding";
import {
  type HeldKey,
  IDEMPOTENCY_LOCK_MS,
  IDEMPOTENCY_RENEW_MS,
  IDEMPOTENCY_WINDOW_MS,
  idempotencyKeyHash,
  idempotencyKeyProblem,
  type KeyOwner,
  openResponse,
  requestFingerprint,
  sealResponse,
} from "../domain/idempotency";
import { configuredSecrets } from "../domain/signing";
import type { JsonValue } from "../versioning";
import type { AppEnv } from "./context";
import { ApiError, invalidRequest } from "./errors";
import { versionHeader } from "./headers";
import { drain, type MaintenanceStep, PER_BATCH } from "./maintenance";
import { readBoundedBody } from "./read-body";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";

/** The largest body an idempotent request may carry (the partner body limit). */
const MAX_BODY_BYTES = 1024 * 1024;

/** The stored response again, with the headers the pipeline set for this request. */
function replay(c: Context<AppEnv>, status: number, version: string, body: string): Response {
  // A delete's 204 is stored without a body, and a Response with that status may carry none.
  if (status === 204) {
    return c.newResponse(null, {
      status,
      headers: { [versionHeader(c.env)]: version, [REPLAYED_HEADER]: "true" },
    });
  }
  return c.newResponse(body, {
    // The status of a response this service answered the first request with (`c.res.status`, or
    // the success its route stored with its effect), stored as a plain number.
    status: status as ContentfulStatusCode,
    headers: {
      "content-type": "application/json",
      [versionHeader(c.env)]: version,
      [REPLAYED_HEADER]: "true",
    },
  });
}

/** Runs a write at most once per Idempotency-Key; see the module comment. */
export const idempotent: MiddlewareHandler<AppEnv> = async (c, next) => {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key === undefined) return next();
  const problem = idempotencyKeyProblem(key);
  if (problem) throw invalidRequest([problem], IDEMPOTENCY_HEADER);

  const caller = c.get("caller");
  const owner: KeyOwner = {
    partnerId: caller.partnerId,
    environment: caller.environment,
    caller: `key:${caller.keyId}`,
  };
  const { row, fingerprint, keyHash, lockToken } = await reserve(c, owner, key);
  if (row.lockToken !== lockToken) return answerOfEarlierRun(c, owner, key, row, fingerprint);

  const held: HeldKey = { owner, key, keyHash, lockToken, storedWithEffect: false };
  c.set("idempotencyKey", held);
  // The version the request was answered in, as the pipeline resolved it before the route ran.
  const version = c.get("version");
  await runHolding(c, next, held);
  await keepResponse(c, held, version);
};

/**
 * Reads the body (the route reads it again from a fresh request of the same bytes), and reserves
 * the key for this run: the row it returns holds this run's lock token, or the earlier run's.
 */
async function reserve(c: Context<AppEnv>, owner: KeyOwner, key: string) {
  const body = await readBoundedBody(c.req.raw, MAX_BODY_BYTES, () =>
    invalidRequest(["The request body is too large."]),
  );
  c.req.raw = new Request(c.req.raw, { body: body.byteLength > 0 ? body : null });
  const fingerprint = await requestFingerprint(
    {
      method: c.req.method,
      path: c.req.path,
      version: c.get("version"),
      merchantKey: c.get("merchantKey") ?? "",
    },
    body,
  );
  const keyHash = await idempotencyKeyHash(owner, key);
  const lockToken = randomBase62(24);
  const now = c.get("now")();
  const row = await reserveKey(c.get("db"), {
    keyHash,
    partnerId: owner.partnerId,
    fingerprint,
    lockToken,
    now,
    lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LOCK_MS),
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_WINDOW_MS),
  });
  return { row, fingerprint, keyHash, lockToken };
}

/** A key another run holds: its stored response again, or why this request cannot have one. */
async function answerOfEarlierRun(
  c: Context<AppEnv>,
  owner: KeyOwner,
  key: string,
  row: IdempotencyRow,
  fingerprint: string,
): Promise<Response> {
  if (row.fingerprint !== fingerprint) {
    throw new ApiError(
      "IDEMPOTENCY_KEY_REUSED_ERROR",
      "This Idempotency-Key was used with another request (method, path, version, product or " +
        "body) in the last 24 hours; use a new key for a new request.",
      { param: IDEMPOTENCY_HEADER },
    );
  }
  const stored =
    row.state === "completed" && row.response
      ? await openResponse(owner, key, sealingSecrets(c), row.response)
      : null;
  if (!stored) {
    throw keyInUse("A request with this Idempotency-Key is still running; retry it shortly.");
  }
  return replay(c, stored.status, stored.version, stored.body);
}

/**
 * Runs the route while holding the key. Its lock is renewed meanwhile, so that only a stalled run
 * loses the key; a renewal that fails only shortens the lock: a run that lost the key cannot
 * complete it anyway. A route that throws releases the key for a retry.
 */
async function runHolding(c: Context<AppEnv>, next: Next, held: HeldKey): Promise<void> {
  const db = c.get("db");
  const renewal = setInterval(() => {
    const until = new Date(c.get("now")().getTime() + IDEMPOTENCY_LOCK_MS);
    renewKey(db, held.keyHash, held.lockToken, until).catch(() => undefined);
  }, IDEMPOTENCY_RENEW_MS);
  try {
    await next();
  } catch (err) {
    await db.batch([releaseKey(db, held.keyHash, held.lockToken)]).catch(() => undefined);
    throw err;
  } finally {
    clearInterval(renewal);
  }
}

/** Stores the route's response under the key for replays, or releases the key for a retry. */
async function keepResponse(c: Context<AppEnv>, held: HeldKey, version: string): Promise<void> {
  // A retry took the key over: its run stores the response, this one's effect was rolled back.
  if (isLeaseLost(c.error)) return;
  if (held.storedWithEffect && c.res.status < 300) return;
  const db = c.get("db");
  const status = c.res.status;
  // A retry after a rate limit or an outage must run again: nothing was done.
  if (status === 429 || status >= 500) {
    await releaseKey(db, held.keyHash, held.lockToken);
    return;
  }
  const text = await c.res.clone().text();
  const sealed = await sealResponse(held.owner, held.key, sealingSecrets(c)[0] ?? "", {
    status,
    version,
    body: text,
  });
  try {
    await completeKey(db, held.keyHash, held.lockToken, status, sealed);
  } catch (err) {
    // Taken over after its effect (one safe to repeat): the run holding the key stores its own.
    if (!isLeaseLost(err)) throw err;
  }
}

/**
 * 409 for a key another run of the request holds: it is still running, or it took the key over
 * from a run that outlived its lock (whose effect was then rolled back).
 */
export function keyInUse(message: string): ApiError {
  return new ApiError("IDEMPOTENCY_KEY_IN_USE_ERROR", message, {
    param: IDEMPOTENCY_HEADER,
    headers: { "Retry-After": "1" },
  });
}

/**
 * The write that stores `response` as this request's response, to put in the batch of the route's
 * own effect: the effect and its replayable response then commit together or not at all. With
 * `effectDone`, the SQL condition saying the effect happened, nothing is stored without it (the
 * route answers its refusal, stored after). Empty when the request sent no Idempotency-Key.
 */
export async function storeWithEffect(
  c: Context<AppEnv>,
  response: { status: number; body: JsonValue | null },
  effectDone?: SQL,
): Promise<ReturnType<typeof completeKey>[]> {
  const held = c.get("idempotencyKey");
  if (!held) return [];
  const { status } = response;
  const sealed = await sealResponse(held.owner, held.key, sealingSecrets(c)[0] ?? "", {
    status,
    version: c.get("version"),
    // A 204 has no body to replay.
    body: response.body === null ? "" : JSON.stringify(response.body),
  });
  held.storedWithEffect = true;
  return [completeKey(c.get("db"), held.keyHash, held.lockToken, status, sealed, effectDone)];
}

/** The secrets stored responses are sealed under: the signing secret, then the previous one. */
function sealingSecrets(c: Context<AppEnv>): string[] {
  return configuredSecrets(c.env.SIGNING_SECRET ?? "", c.env.SIGNING_SECRET_PREVIOUS);
}

/** The maintenance step that deletes, on every shard, the keys past their 24 hours. */
export const idempotencyKeysPurged: MaintenanceStep = {
  name: "idempotency_keys_purged",
  run: ({ db, now }) => drain(() => purgeExpiredIdempotencyKeys(db, now.toISOString(), PER_BATCH)),
};
