// The Hono environment every sub-app is typed with: the Worker's bindings, and the variables the
// request pipeline sets on the context before a handler runs.
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
  /** The SHA-256 of the session's id: the id itself is only ever in the user's cookie. */
  sessionHash: string;
  /** The token every state-changing form of this session carries. */
  csrfToken: string;
  /** While the partner's data is being moved, its pages show but its changes answer 503. */
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
   * The jurisdiction of each shard, declared in `[vars]` as a map from shard code to `none`, `eu`,
   * `us` or `fedramp`. A shard it does not name has none; src/db/shards.ts reads it.
   */
  SHARD_JURISDICTIONS?: unknown;
  /**
   * How the dashboard's mail is sent: `outbox` keeps it for local runs to read, `cloudflare` sends
   * it through the MAIL binding, and `http` posts it to MAIL_API_URL.
   */
  MAILER?: string;
  MAIL_FROM?: string;
  /** For the `http` mailer: an endpoint that takes Resend's JSON, and its API key (a secret). */
  MAIL_API_URL?: string;
  MAIL_API_KEY?: string;
  /** For the `cloudflare` mailer: a `send_email` binding of Cloudflare's Email Service. */
  MAIL?: SendEmail;
  /** During a rotation: the token being replaced, still accepted until it is deleted. */
  OPERATOR_TOKEN_PREVIOUS?: string;
  /**
   * `production` in a deployed Worker: set only by `npm run deploy` (`wrangler deploy --var`),
   * never by a local run. With it, an operator token shorter than 32 characters is not used.
   */
  DEPLOYMENT?: string;
  /** During a rotation: the secret being replaced, still accepted for verification only. */
  SIGNING_SECRET_PREVIOUS?: string;
  /**
   * The queue that records of partner API requests go through (src/request-logs/); when it is not
   * bound, no records are kept. A partner with a jurisdiction has its records sent through that
   * jurisdiction's own queue, such as `REQUEST_LOGS_EU`, and never through this one.
   */
  REQUEST_LOGS?: Queue;
  REQUEST_LOGS_EU?: Queue;
}

export type { Caller } from "../domain/caller";

export interface Variables {
  /** The versions this app serves: versions/index.ts in production, and whatever a test passes. */
  bundle: VersionBundle;
  /** This isolate's request counts by version, which it writes to D1 at most once a minute. */
  versionUsage: VersionUsage;
  requestId: string;
  /** Every database the request may open, each opened once, its round trips counted together. */
  shards: Shards;
  /**
   * The partner's database: set once the request knows its partner (from the key, the session,
   * the link or the operator's partner id), on the shard it lives on.
   */
  db: Database;
  shard: string;
  queryStats: QueryStats;
  signer: Signer;
  /** The documents bucket of the partner's jurisdiction, set together with `db`. */
  documents: DocumentStore;
  /** The request's clock, taken from here so that tests can move it with fake timers. */
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
   * The reads a route plans from the request alone, before the caller is known. They are sent in
   * the same statement as the key lookup, so that such a request costs one round trip; their
   * answers are in `readAheadResults`.
   */
  readAhead: ReadAhead;
  readAheadResults: ReadAheadResults;
  /** The route's query parameters as app/route.ts parsed them, or the 400 they answer. */
  query: unknown;
  /** The signed-in dashboard user, on /dashboard pages that need one. */
  session: DashboardSession;
  /** The environment a dashboard page is in, from its URL: `/dashboard/{environment}/…`. */
  environment: Environment;
  /** The Idempotency-Key this POST holds while it runs, if it sent one. */
  idempotencyKey?: HeldKey;
  /** The rate limit the request is over, if any, counted in the key lookup's round trip. */
  overLimit: Promise<RatePolicy | null>;
  /** The error that `app.onError` rendered as the response, kept for the request log. */
  apiError?: ApiError;
}

export type AppEnv = { Bindings: Bindings; Variables: Variables };
