// The configured rate limits: each one's binding, the policy name clients see, and the numbers of
// wrangler.toml, from which the RateLimit headers are derived.
export type LimiterBinding =
  | "PARTNER_KEY_RATE_LIMITER"
  | "PARTNER_RATE_LIMITER"
  | "SIMULATION_RATE_LIMITER"
  | "AUTH_FAILURE_RATE_LIMITER"
  | "PDF_LINK_RATE_LIMITER"
  | "OPERATOR_RATE_LIMITER";

/** One limit: its binding, the policy name clients see, and the numbers of wrangler.toml. */
export interface RatePolicy {
  binding: LimiterBinding;
  /** The policy item's name in `RateLimit-Policy` and `RateLimit`. */
  name: string;
  limit: number;
  /** Seconds; the binding offers 10 or 60. */
  period: 10 | 60;
}

/**
 * The configured limits. The binding reports only success or failure, so the headers are derived
 * from these numbers; they must equal `[[ratelimits]]` in wrangler.toml (a test compares them).
 */
export const RATE_LIMITS = {
  partnerKey: { binding: "PARTNER_KEY_RATE_LIMITER", name: "api-key", limit: 1000, period: 10 },
  partner: { binding: "PARTNER_RATE_LIMITER", name: "partner", limit: 5000, period: 10 },
  simulation: {
    binding: "SIMULATION_RATE_LIMITER",
    name: "sandbox-simulations",
    limit: 60,
    period: 60,
  },
  authFailure: {
    binding: "AUTH_FAILURE_RATE_LIMITER",
    name: "failed-authentication",
    limit: 20,
    period: 60,
  },
  pdfLink: { binding: "PDF_LINK_RATE_LIMITER", name: "pdf-link", limit: 300, period: 60 },
  operator: { binding: "OPERATOR_RATE_LIMITER", name: "operator", limit: 600, period: 60 },
} as const satisfies Record<string, RatePolicy>;

/** `"api-key";q=1000;w=10`: the policy as draft-ietf-httpapi-ratelimit-headers writes it. */
export function policyField(policy: RatePolicy): string {
  return `"${policy.name}";q=${policy.limit};w=${policy.period}`;
}

/** `"api-key";q=1000;w=10, "partner";q=5000;w=10`: the limits every `/v2` request counts in. */
export const API_POLICIES = [RATE_LIMITS.partnerKey, RATE_LIMITS.partner]
  .map(policyField)
  .join(", ");
