// The tables that every feature shares: partners and their products, API keys, customers, dashboard
// users and their credentials, the audit log, idempotency keys and version usage.
//
// Each feature keeps its own tables in its folder's schema.ts, and together they are the schema of
// every shard. They are the one source of truth: `npm run db:generate` writes migrations/ from all
// of the src/*/schema.ts files. What must be found before the shard is known, such as a partner's
// shard, is in the directory database instead (src/db/directory-schema.ts).
import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { JURISDICTIONS } from "../domain/jurisdiction";
import type { LatePaymentTerms, MinimumPaymentRule } from "../domain/product";
import type { RewardsCategory } from "../domain/rewards";

/** A company that runs a co-branded card programme. It saves an API version per environment. */
export const partners = sqliteTable("partners", {
  partnerId: text("partner_id").primaryKey(),
  name: text("name").notNull(),
  savedVersionSandbox: text("saved_version_sandbox").notNull(),
  savedVersionProduction: text("saved_version_production").notNull(),
  /**
   * JSON array of the partner's merchant keys, a copy of `products` kept by the import so that
   * authentication reads one partner row instead of every product row.
   */
  merchantKeys: text("merchant_keys").notNull().default("[]"),
  createdAt: text("created_at").notNull(),
  /**
   * Where the partner's data must stay (`none`, `eu`, `us`, `fedramp`): set when it is created,
   * never changed (a trigger refuses it), and the jurisdiction of every shard it lives on.
   */
  jurisdiction: text("jurisdiction", { enum: JURISDICTIONS }).notNull().default("none"),
  /**
   * Set while the partner is being moved away from this shard (the shard code it goes to): its
   * data here is frozen, so writes are refused until the move switches over. Null otherwise.
   */
  movingTo: text("moving_to"),
  /**
   * Set once a move has switched the partner over to another shard (its code): this row and the
   * partner's credentials (keys, users, sessions) stay here to forward what still names this
   * shard. Null on the partner's own shard.
   */
  movedTo: text("moved_to"),
});

/**
 * A card product of a partner, addressed by the merchant-key header, and how its statement
 * documents come to be: `rendered` by the service (the default) or `uploaded` by the operator
 * (products stored before the service rendered documents were set to `uploaded`: migration 0012).
 * Its presentation on those documents: a display name (else `name`), an accent colour (else the
 * service's) and a logo, stored in R2 under its content hash, with its alternative text.
 */
export const products = sqliteTable(
  "products",
  {
    merchantKey: text("merchant_key").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId),
    name: text("name").notNull(),
    documents: text("documents", { enum: ["rendered", "uploaded"] })
      .notNull()
      .default("rendered"),
    displayName: text("display_name"),
    /** The accent colour, written `#RRGGBB`. */
    accentColour: text("accent_colour"),
    /** Where the logo is in R2. The three logo columns are either all set or all null. */
    logoKey: text("logo_key"),
    logoMediaType: text("logo_media_type", { enum: ["image/png", "image/jpeg"] }),
    logoAltText: text("logo_alt_text"),
    // The terms its statement documents disclose; each null until set.
    /** The address to send billing-error notices to, as a JSON array of its lines. */
    billingRightsAddress: text("billing_rights_address", { mode: "json" }).$type<string[]>(),
    latePayment: text("late_payment", { mode: "json" }).$type<LatePaymentTerms>(),
    minimumPayment: text("minimum_payment", { mode: "json" }).$type<MinimumPaymentRule>(),
    creditCounselingPhone: text("credit_counseling_phone"),
    /** What the card earns per merchant category, in the product's order (JSON); null: none. */
    rewardsCategories: text("rewards_categories", { mode: "json" }).$type<RewardsCategory[]>(),
  },
  (t) => [index("products_partner_idx").on(t.partnerId, t.merchantKey)],
);

/** API keys: only the SHA-256 of the key is stored; the plaintext is shown once, at creation. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    keyId: text("key_id").primaryKey(),
    keyHash: text("key_hash").notNull(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    /** The key's scopes, as a JSON array of their names. */
    scopes: text("scopes").notNull(),
    name: text("name"),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
    /** When the key stops working, or null for never; rolling a key sets it on the old one. */
    expiresAt: text("expires_at"),
    /** The key that minted this one with `POST /v2/keys`; revoking it revokes this one too. */
    parentKeyId: text("parent_key_id"),
    /** Who created the key; null for keys created before creators were recorded. */
    createdBy: text("created_by", { enum: ["operator", "user", "key"] }),
    /** The dashboard user who created (or rolled into) the key, when `created_by` is `user`. */
    createdByUserId: text("created_by_user_id"),
    /** What the dashboard shows of the key (`sk_live_…Ab3d`); null on keys older than it. */
    maskedKey: text("masked_key"),
    /**
     * Whether the key carries the operator's grant of its scopes: created by the operator, or
     * rolled from a key that carried it. Dashboard keys take their scopes among those of the live
     * keys that carry it. Null for keys older than the column, whose `created_by` says instead.
     */
    operatorGrant: integer("operator_grant", { mode: "boolean" }),
    /**
     * UTC day (`YYYY-MM-DD`) the key last authenticated a request. Written at most once a day,
     * after the response, only when the key lookup saw an older day.
     */
    lastUsedOn: text("last_used_on"),
  },
  (t) => [
    uniqueIndex("api_keys_hash_idx").on(t.keyHash),
    index("api_keys_partner_idx").on(t.partnerId, t.environment, t.createdAt),
    index("api_keys_parent_idx").on(t.parentKeyId),
  ],
);

export const customers = sqliteTable(
  "customers",
  {
    customerId: text("customer_id").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    merchantKey: text("merchant_key")
      .notNull()
      .references(() => products.merchantKey),
    partnerCustomerId: text("partner_customer_id"),
    /** The account's authorized users as a JSON array, or null when it has none. */
    authorizedUsers: text("authorized_users"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("customers_scope_idx").on(t.partnerId, t.environment, t.merchantKey, t.customerId),
    // Sandbox customers by age: what the sandbox's expiry deletes (src/simulations/).
    index("customers_sandbox_created_idx").on(t.createdAt).where(sql`environment = 'sandbox'`),
  ],
);

/** Dashboard users: invitation-only members of one partner. Addresses are stored lowercased. */
export const users = sqliteTable(
  "users",
  {
    userId: text("user_id").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId),
    email: text("email").notNull(),
    role: text("role", { enum: ["Admin", "Developer"] }).notNull(),
    createdAt: text("created_at").notNull(),
    lastSignedInAt: text("last_signed_in_at"),
  },
  (t) => [
    uniqueIndex("users_partner_email_idx").on(t.partnerId, t.email),
    index("users_email_idx").on(t.email),
  ],
);

/** One-time sign-in links: only the SHA-256 of the token is stored; single use, short-lived. */
export const signInTokens = sqliteTable(
  "sign_in_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.userId),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
  },
  (t) => [index("sign_in_tokens_user_idx").on(t.userId)],
);

/** Dashboard sessions: only the SHA-256 of the cookie's id is stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    sessionHash: text("session_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.userId),
    createdAt: text("created_at").notNull(),
    /** The last use, written at most once a minute; the idle timeout counts from here. */
    lastSeenAt: text("last_seen_at").notNull(),
    /** The absolute end of the session, whatever its use. */
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/**
 * Who changed what, for a partner: keys, saved versions, users and sign-ins, from the dashboard,
 * the operator API and `POST /v2/keys`. Append-only; `id` orders it (newest first by keyset).
 */
export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId),
    occurredAt: text("occurred_at").notNull(),
    actorType: text("actor_type", { enum: ["user", "key", "operator"] }).notNull(),
    /** The user id or key id; null for the operator. */
    actorId: text("actor_id"),
    /** What to show for the actor, as it was then (a user's address, a key id, `operator`). */
    actorLabel: text("actor_label").notNull(),
    action: text("action").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }),
    /** The key id, user id or version the action was about. */
    target: text("target"),
    /** The particulars of the action, as a JSON object. */
    details: text("details"),
    ip: text("ip"),
  },
  (t) => [index("audit_events_partner_idx").on(t.partnerId, t.id)],
);

/**
 * Idempotency keys of partner POSTs, for 24 hours. Looked up by a hash of (partner, environment,
 * key); the stored response is encrypted under a key derived from the Idempotency-Key itself, so
 * a replayed secret (a new API key, a webhook secret) is unreadable without the client's key.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    keyHash: text("key_hash").primaryKey(),
    /** The partner whose request holds the key (what a move copies); null for older keys. */
    partnerId: text("partner_id"),
    /** Hash of what makes two requests the same: method, path, version, product and body. */
    fingerprint: text("fingerprint").notNull(),
    state: text("state", { enum: ["running", "completed"] }).notNull(),
    /** A running request's reservation; once past, a retry may take the key over. */
    lockedUntil: text("locked_until"),
    lockToken: text("lock_token"),
    responseStatus: integer("response_status"),
    response: text("response"),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("idempotency_keys_expiry_idx").on(t.expiresAt)],
);

/**
 * Requests served per day, API version, partner and environment: added to by each isolate at most
 * once a minute (src/app/version-usage.ts), read by the operator API. The key starts with the
 * day, so "the last 30 days" is one range of the primary key.
 */
export const versionUsage = sqliteTable(
  "version_usage",
  {
    day: text("day").notNull(),
    version: text("version").notNull(),
    partnerId: text("partner_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    requests: integer("requests").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.version, t.partnerId, t.environment] })],
);
