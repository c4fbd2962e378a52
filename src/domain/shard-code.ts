// Shard codes: two base62 characters naming the D1 database a partner's data lives in (shard
// `01` is the binding DB_01). Keys, links, page tokens, session ids and queue messages carry one,
// so that whatever arrives names its database without asking anyone.

/** A shard's code. */
export const SHARD_CODE = /^[0-9A-Za-z]{2}$/;

/**
 * The first shard: the database that was the only one before sharding. Keys, links, tokens and
 * sessions issued then carry no code, and live here.
 */
export const FIRST_SHARD = "00";

export function isShardCode(text: string): boolean {
  return SHARD_CODE.test(text);
}
