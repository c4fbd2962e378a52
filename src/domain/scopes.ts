// The scopes an API key can carry (SPEC.md's table), configured by the operator.

export const SCOPES = [
  "ORDER_READ",
  "ORDER_WRITE",
  "TRANSACTION_INTENT_READ",
  "TRANSACTION_INTENT_WRITE",
  "CARD_WRITE",
  "ACCOUNT_READ",
  "PCI_DETAILS_READ",
  "AUTHORIZED_USER_READ",
] as const;

export type Scope = (typeof SCOPES)[number];

/** Soft scopes never fail a request; they only reveal extra fields. */
export const SOFT_SCOPES: readonly Scope[] = ["PCI_DETAILS_READ", "AUTHORIZED_USER_READ"];

/** A key's scopes as `api_keys.scopes` stores them. */
export function storedScopes(json: string): Scope[] {
  // The column only ever holds the JSON of a key's validated `Scope[]`: `prepareApiKey` writes it,
  // and a roll or a partner's move to another shard copies it unchanged.
  return JSON.parse(json) as Scope[];
}
