// Sign-in requests are rate limited per client IP and per address (Workers Rate Limiting
// bindings), so nobody can flood an inbox or probe addresses quickly.
import type { Context } from "hono";
import { clientIp } from "../app/actor";
import type { AppEnv } from "../app/context";
import { sha256Hex } from "../domain/encoding";

/** Whether this sign-in request is within both limits. The address is counted by its hash. */
export async function withinSignInLimits(c: Context<AppEnv>, email: string): Promise<boolean> {
  const byIp = await c.env.SIGN_IN_BY_IP.limit({ key: clientIp(c) ?? "unknown" });
  if (!byIp.success) return false;
  const byAddress = await c.env.SIGN_IN_BY_ADDRESS.limit({ key: await sha256Hex(email) });
  return byAddress.success;
}
