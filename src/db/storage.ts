// Storage failures, told apart from bugs: an error raised by D1 or R2 itself (a lost connection, a
// timeout, an overload, a reset) is an outage the client may retry; an error about the statement
// sent (a constraint, a type, SQL that does not compile) is not. No HTTP here: app/respond.ts
// answers an outage with 503.

/** D1 or R2 could not serve a call; the call did not take effect, or took effect atomically. */
export class StorageUnavailableError extends Error {
  constructor(cause: unknown) {
    super("storage unavailable", { cause });
    this.name = "StorageUnavailableError";
  }
}

/**
 * A write refused because its partner is being moved to another shard: the move's fence on the
 * old shard (src/shards/partner-moves.ts). Nothing was written; the same write succeeds once the move
 * has switched over, so it is retried like an outage.
 */
export class PartnerMovingError extends StorageUnavailableError {
  constructor(cause: unknown) {
    super(cause);
    this.name = "PartnerMovingError";
  }
}

/** The refusal a move's fence raises (its triggers, src/shards/partner-moves.ts). */
export const PARTNER_MOVING = "partner_moving";

/** Whether the message of `err`, or of anything it wraps, contains `text` (or matches it). */
export function hasMessage(err: unknown, text: string | RegExp): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (typeof text === "string" ? e.message.includes(text) : text.test(e.message)) return true;
  }
  return false;
}

/** Errors that describe the statement rather than the storage: retrying cannot help. */
const STATEMENT_ERROR =
  /constraint failed|SQLITE_CONSTRAINT|SQLITE_MISMATCH|SQLITE_RANGE|SQLITE_TOOBIG|D1_TYPE_ERROR|no such (table|column|function)|syntax error|too many SQL variables|statement_figures_immutable|idempotency_lease_lost/i;

/**
 * The error a storage call should raise: a move's fence as PartnerMovingError, statement errors
 * as they are, the rest as outages.
 */
export function storageFailure(err: unknown): unknown {
  if (err instanceof StorageUnavailableError) return err;
  if (hasMessage(err, PARTNER_MOVING)) return new PartnerMovingError(err);
  return hasMessage(err, STATEMENT_ERROR) ? err : new StorageUnavailableError(err);
}

/** Runs one storage call, raising its failure as `storageFailure` classifies it. */
export async function storageCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw storageFailure(err);
  }
}

/** Whether `err`, or anything it wraps, is a storage outage. */
export function isStorageOutage(err: unknown): boolean {
  return wraps(err, StorageUnavailableError);
}

/**
 * Whether `err`, or anything it wraps, is a write a move's fence refused: classified by
 * `storageCall`, or raw from a write that bypassed it (`db.$client`).
 */
export function isPartnerMoving(err: unknown): boolean {
  return wraps(err, PartnerMovingError) || hasMessage(err, PARTNER_MOVING);
}

function wraps(err: unknown, type: typeof StorageUnavailableError): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof type) return true;
  }
  return false;
}

/** The R2 calls the service makes, each classified like D1's. */
export interface DocumentStore {
  head(key: string): Promise<R2Object | null>;
  get(key: string, options?: R2GetOptions): Promise<R2ObjectBody | null>;
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
}

export function openDocumentStore(bucket: R2Bucket): DocumentStore {
  return {
    head: (key) => storageCall(() => bucket.head(key)),
    get: (key, options) => storageCall(() => bucket.get(key, options ?? {})),
    put: async (key, bytes, contentType) => {
      await storageCall(() => bucket.put(key, bytes, { httpMetadata: { contentType } }));
    },
  };
}
