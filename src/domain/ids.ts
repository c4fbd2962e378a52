// Public identifiers that sort by creation time: 9 base62 characters of milliseconds, then 16
// random ones, so a page in id order is a page in time order and ids never collide in practice.
import { randomBase62, toBase62 } from "./encoding";

/** The time-ordered part of an id, for `at` (epoch milliseconds). */
export function encodeIdSuffix(at: number = Date.now()): string {
  return toBase62(at, 9) + randomBase62(16);
}
