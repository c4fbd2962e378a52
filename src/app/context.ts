// The Hono environment shared by every sub-app: bindings, and what the pipeline sets per request.
import type { Environment } from "../../versions";
import type { Database, QueryStats } from "../db/client";
import type { ReadAhead } from "../db/queries";
import type { DocumentStore } from "../db/storage";
import type { Signer } from "../domain/signing";

/**
 * Secrets are set with `wrangler secret put` (locally: .dev.vars, which `wrangler types` reads);
 * a deployment may lack them, so they are optional here and checked where used.
 */
export interface Bindings extends Omit<Env, "OPERATOR_TOKEN" | "SIGNING_SECRET"> {
  OPERATOR_TOKEN?: string;
  SIGNING_SECRET?: string;
  /** During a rotation: the token being replaced, still accepted until it is deleted. */
  OPERATOR_TOKEN_PREVIOUS?: string;
  /** During a rotation: the secret being replaced, still accepted for verification only. */
  SIGNING_SECRET_PREVIOUS?: string;
}

/** The authenticated caller: what the key lookup returns. */
export interface Caller {
  keyId: string;
  partnerId: string;
  environment: Environment;
  scopes: readonly string[];
  savedVersion: string;
  /** The partner's products' merchant keys. */
  merchantKeys: readonly string[];
}

export interface Variables {
  requestId: string;
  db: Database;
  queryStats: QueryStats;
  signer: Signer;
  /** The PDF bucket, its failures classified like D1's. */
  documents: DocumentStore;
  /** The request clock; tests move it with fake timers. */
  now: () => Date;
  caller: Caller;
  /** The API version chosen for this request; unset until resolved. */
  version: string;
  /** The product the request reads, for customer-scoped routes. */
  merchantKey: string;
  /**
   * Reads a route planned from the request alone, to share the key lookup's round trip; set
   * before authentication, answered in `readAheadResults` (see `findCallerByKeyHash`).
   */
  readAhead: ReadAhead;
  readAheadResults: D1Result[];
  /** The API key's rate-limit check, started alongside the key lookup. */
  keyWithinLimit: Promise<boolean>;
}

export type AppEnv = { Bindings: Bindings; Variables: Variables };
