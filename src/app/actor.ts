// Who is acting on a request, as the audit log records it: a dashboard user, an API key or the
// operator, with the client's address.
import type { SQL } from "drizzle-orm";
import type { Context } from "hono";
import { auditInsert } from "../db/audit";
import type { Actor, AuditChange } from "../domain/audit";
import type { User } from "../domain/user";
import type { AppEnv } from "./context";

/** The client's address as Cloudflare saw it; null when the request did not come through it. */
export function clientIp(c: Context<AppEnv>): string | null {
  return c.req.header("cf-connecting-ip") ?? null;
}

export function keyActor(c: Context<AppEnv>): Actor {
  const { keyId } = c.get("caller");
  return { type: "key", id: keyId, label: keyId, ip: clientIp(c) };
}

export function operatorActor(c: Context<AppEnv>): Actor {
  return { type: "operator", id: null, label: "operator", ip: clientIp(c) };
}

export function userActor(c: Context<AppEnv>, user: Pick<User, "userId" | "email">): Actor {
  return { type: "user", id: user.userId, label: user.email, ip: clientIp(c) };
}

/**
 * The audit row of a write made with the request's API key, for the write's own batch: with
 * `guard`, the condition saying the write happened, it is written only then.
 */
export function keyAudit(c: Context<AppEnv>, change: AuditChange, guard: SQL) {
  const { partnerId, environment } = c.get("caller");
  return auditInsert(partnerId, keyActor(c), { environment, ...change }, c.get("now")(), {
    guard,
  });
}
