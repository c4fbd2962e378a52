// The Hono environment shared by every sub-app: bindings, and what the pipeline sets per request.
import type { Environment, VersionBundle } from "../../versions";
import type { Database, QueryStats } from "../db/client";
import type { Signer } from "../domain/signing";
import type { VersionUsage } from "./version-usage";

/**
 * Secrets are set with `wrangler secret put` (locally: .dev.vars, which `wrangler types` reads);
 * a deployment may lack them, so they are optional here and checked where used.
 */
export interface Bindings extends Omit<Env, "OPERATOR_TOKEN" | "SIGNING_SECRET"> {
  OPERATOR_TOKEN?: string;
  SIGNING_SECRET?: string;
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
  /** The versions this app serves (versions/index.ts in production; tests may pass another). */
  bundle: VersionBundle;
  /** Per-isolate request counts by version, flushed to D1 now and then. */
  versionUsage: VersionUsage;
  requestId: string;
  db: Database;
  queryStats: QueryStats;
  signer: Signer;
  /** The request clock; tests move it with fake timers. */
  now: () => Date;
  caller: Caller;
  /** The API version chosen for this request; unset until resolved. */
  version: string;
  /** The product the request reads, for customer-scoped routes. */
  merchantKey: string;
  /**
   * Reads a route planned from the request alone, sent in the key lookup's batch so that the
   * request costs one round trip; set before authentication, answered in `readAheadResults`.
   */
  readAhead: readonly D1PreparedStatement[];
  readAheadResults: D1Result[];
}

export type AppEnv = { Bindings: Bindings; Variables: Variables };
