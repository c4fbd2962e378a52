// The Hono environment shared by every sub-app: bindings, and what the pipeline sets per request.
import type { Database, QueryStats } from "../db/client";
import type { ReadAhead, ReadAheadResults } from "../db/key-lookup";
import type { Shards } from "../db/shards";
import type { DocumentStore } from "../db/storage";
import type { Caller } from "../domain/caller";
import type { Environment } from "../domain/environment";
import type { HeldKey } from "../domain/idempotency";
import type { Signer } from "../domain/signing";
import type { User } from "../domain/user";
import type { VersionBundle } from "../versioning";
import type { ApiError } from "./errors";
import type { RatePolicy } from "./rate-policies";
import type { VersionUsage } from "./version-usage";

/** A dashboard request's signed-in user, its partner and session. */
export interface DashboardSession {
  user: User;
  partnerName: string;
  /** SHA-256 of the session id (the id itself stays in the cookie). */
  sessionHash: string;
  /** The token every state-changing form of this session carries. */
  csrfToken: string;
  /** The partner is being moved to another shard: its changes wait (503), its pages show. */
  moving: boolean;
}

/**
 * Secrets are set with `wrangler secret put` (locally: .dev.vars, which `wrangler types` reads);
 * a deployment may lack them, so they are optional here and checked where used.
 */
export interface Bindings
  extends Omit<
    Env,
    | "OPERATOR_TOKEN"
    | "SIGNING_SECRET"
    | "DIRECTORY_SECRET"
    | "CARD_DATA_KEYS"
    | "MAILER"
    | "REQUEST_LOGS"
    | "REQUEST_LOGS_EU"
    | "SHARD_JURISDICTIONS"
  > {
  OPERATOR_TOKEN?: string;
  SIGNING_SECRET?: string;
  /** HMAC key of the addresses the directory keeps for partners with a jurisdiction. */
  DIRECTORY_SECRET?: string;
  /**
   * The data keys of cards' PANs and CVVs, `id:base64` (32 bytes each), comma-separated, the one
   * that encrypts first: src/payment-methods/card-secrets.ts.
   */
  CARD_DATA_KEYS?: string;
  /** Wallet provisioning (src/payment-methods/provisioning/wallet-config.ts): a secret. */
  PROVISIONING_KEY?: string;
  /** Apple's root certificate (base64 DER or PEM); unset, an Apple Pay chain is not checked. */
  APPLE_PAY_ROOT_CERT?: string;
  /** Each wallet provider's EC P-256 public JWK, as JSON. */
  GOOGLE_PAY_PUBLIC_KEY?: string;
  SAMSUNG_PAY_PUBLIC_KEY?: string;
  /**
   * Each shard's jurisdiction (`[vars]`: a map of shard code to `none`, `eu`, `us`, `fedramp`);
   * unset, or a shard it does not name: none. See src/db/shards.ts.
   */
  SHARD_JURISDICTIONS?: unknown;
  /** How dashboard mail leaves: `outbox` (local), `cloudflare` (the MAIL binding) or `http`. */
  MAILER?: string;
  /** The sender of dashboard mail. */
  MAIL_FROM?: string;
  /** `http` mailer: the endpoint (Resend-compatible JSON) and its API key (a secret). */
  MAIL_API_URL?: string;
  MAIL_API_KEY?: string;
  /** `cloudflare` mailer: a `send_email` binding (Cloudflare Email Service). */
  MAIL?: SendEmail;
  /** During a rotation: the token being replaced, still accepted until it is deleted. */
  OPERATOR_TOKEN_PREVIOUS?: string;
  /** During a rotation: the secret being replaced, still accepted for verification only. */
  SIGNING_SECRET_PREVIOUS?: string;
  /**
   * Where records of partner API requests go (src/request-logs/); unbound: none are kept. Those of
   * partners with a jurisdiction go through that jurisdiction's (`REQUEST_LOGS_EU`, …) alone.
   */
  REQUEST_LOGS?: Queue;
  REQUEST_LOGS_EU?: Queue;
}

export type { Caller } from "../domain/caller";

export interface Variables {
  /** The versions this app serves (versions/index.ts in production; tests may pass another). */
  bundle: VersionBundle;
  /** Per-isolate request counts by version, flushed to D1 now and then. */
  versionUsage: VersionUsage;
  requestId: string;
  /** Every database the request may open (its partner's shard, the directory), counted alike. */
  shards: Shards;
  /**
   * The partner's database: set once the request knows its partner (from the key, the session,
   * the link or the operator's partner id), on the shard it lives on.
   */
  db: Database;
  /** The code of that shard. */
  shard: string;
  queryStats: QueryStats;
  signer: Signer;
  /**
   * The documents bucket of the partner's jurisdiction (set with `db`), its failures classified
   * like D1's.
   */
  documents: DocumentStore;
  /** The request clock; tests move it with fake timers. */
  now: () => Date;
  caller: Caller;
  /**
   * Called once the caller is known, before anything reads the request's body: the request log
   * keeps its own copy of the body of a request it will record, and of no other.
   */
  onAuthenticated?: () => void;
  /** The API version chosen for this request; unset until resolved. */
  version: string;
  /** The product the request reads, for customer-scoped routes. */
  merchantKey: string;
  /**
   * Reads a route planned from the request alone, sent in the key lookup's statement so that the
   * request costs one round trip; set before authentication, answered in `readAheadResults`.
   */
  readAhead: ReadAhead;
  readAheadResults: ReadAheadResults;
  /** The route's query parameters as read once (or the 400 they answer); see app/route.ts. */
  query: unknown;
  /** The signed-in dashboard user, on /dashboard pages that need one. */
  session: DashboardSession;
  /** The environment of a dashboard page in one (`/dashboard/{environment}/…`). */
  environment: Environment;
  /** The Idempotency-Key this POST holds while it runs, if it sent one. */
  idempotencyKey?: HeldKey;
  /** The rate limit (the key's or its partner's) the request is over, counted with the lookup. */
  overLimit: Promise<RatePolicy | null>;
  /** The error the response renders, once `app.onError` rendered one (for the request log). */
  apiError?: ApiError;
}

export type AppEnv = { Bindings: Bindings; Variables: Variables };
