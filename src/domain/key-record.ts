// An API key as the dashboard and the operator list it: never the key itself, only what
// identifies it (id, masked form) and its life (created, expiry, last used, revoked).
import type { Environment } from "./environment";

export type KeyCreator =
  | { type: "operator" }
  | { type: "user"; userId: string; email: string | null }
  | { type: "key"; keyId: string }
  | { type: "unknown" };

export interface ApiKeyRecord {
  keyId: string;
  name: string | null;
  environment: Environment;
  scopes: string[];
  /** `sk_live_…Ab3d`, or only the prefix for keys created before the last four were kept. */
  masked: string;
  createdAt: string;
  createdBy: KeyCreator;
  parentKeyId: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  /** UTC day, `YYYY-MM-DD`. */
  lastUsedOn: string | null;
}

export type KeyStatus = "active" | "expiring" | "expired" | "revoked";

/** Revoked wins over expired; a key with a future expiry is `expiring`. */
export function keyStatus(
  key: Pick<ApiKeyRecord, "revokedAt" | "expiresAt">,
  now: Date,
): KeyStatus {
  if (key.revokedAt !== null) return "revoked";
  if (key.expiresAt === null) return "active";
  return key.expiresAt > now.toISOString() ? "expiring" : "expired";
}

/** The key's prefix and its last four characters, kept at creation for recognising it later. */
export function maskApiKey(apiKey: string): string {
  const prefix = /^sk_(sandbox|live)_/.exec(apiKey)?.[0] ?? "";
  return `${prefix}…${apiKey.slice(-4)}`;
}

/** The masked form of a key created before the last four were kept: its prefix only. */
export function maskedPrefix(environment: Environment): string {
  return environment === "sandbox" ? "sk_sandbox_…" : "sk_live_…";
}

/**
 * The most live (unrevoked, unexpired) keys a partner may hold in one environment. Each key has a
 * rate limit of its own, so keys minted without bound would multiply a partner's throughput and
 * grow the key table without end.
 */
export const MAX_LIVE_KEYS = 100;

/** How long the old key keeps working after a roll. */
export const ROLL_GRACE = {
  now: 0,
  "1h": 3_600_000,
  "24h": 86_400_000,
  "7d": 7 * 86_400_000,
} as const;

export type RollGrace = keyof typeof ROLL_GRACE;

export function isRollGrace(value: string): value is RollGrace {
  return Object.hasOwn(ROLL_GRACE, value);
}
