// Users of a partner's dashboard. Only what webhook notices need: the Admins' addresses.
import type { Database } from "./client";

/**
 * The email addresses of the partner's Admins. There is no users table in this schema yet, so no
 * partner has Admins to write to: a disabled endpoint is still recorded (status, reason, time)
 * and logged, and the notice reaches Admins once users exist.
 */
export async function adminEmailsOf(_db: Database, _partnerId: string): Promise<string[]> {
  return [];
}
