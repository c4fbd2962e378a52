// The private halves of the wallet provider keys the test run configures (vitest.config.ts): what
// reads an opaque payment card back, as the provider would.
import type { JWK } from "jose";

export const WALLET_PROVIDER_PRIVATE_KEYS: Record<"google_pay" | "samsung_pay", JWK> = {
  google_pay: {
    kty: "EC",
    x: "jKVw3lOjYjbaqfkWbQuVEUoRxvhRvU02YsKGRuRcgrw",
    y: "ywqFJmcvdQK3G0Diu6JqisfmivDr9hcCeUl3fXUc24M",
    crv: "P-256",
    d: "Hd1n2BpDdb5inpoZul7gV_4Ce8z45pnyh2nLxvxqg8k",
    kid: "test-google",
  },
  samsung_pay: {
    kty: "EC",
    x: "UbfXBRtpoQDvqVjU8zUl2eSNlKyYHzfVK6fNLCsyEvY",
    y: "3VIESbLh4JxfDTuH0hxIFEeKIZAwlbhhLFVhwxfx0z8",
    crv: "P-256",
    d: "fQgmHv9UXfzVoWd3RVXZQdYRsP_zfKHIEehvae_uu5c",
    kid: "test-samsung",
  },
};
