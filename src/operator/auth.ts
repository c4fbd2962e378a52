// Guard of /operator/*: a bearer token compared in constant time; absent configuration hides it.
// During a rotation the previous token is accepted too, until it is deleted.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { failedAuthentication } from "../app/rate-limit";

async function digest(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
}

/** Constant-time: hashing both sides gives equal lengths, so nothing leaks about the token. */
async function sameToken(given: ArrayBuffer, expected: string): Promise<boolean> {
  return crypto.subtle.timingSafeEqual(given, await digest(expected));
}

/**
 * 404 for every route when no OPERATOR_TOKEN is set; 401 for a missing or wrong token (429 while
 * a client address is over the failed-authentication limit; the right token is still served).
 */
export const operatorAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const current = c.env.OPERATOR_TOKEN;
  if (!current) throw new ApiError("NOT_FOUND_ERROR", `No route ${c.req.method} ${c.req.path}.`);
  const match = /^Bearer +(\S+) *$/i.exec(c.req.header("authorization") ?? "");
  const given = await digest(match?.[1] ?? "");
  const previous = c.env.OPERATOR_TOKEN_PREVIOUS;
  // Both comparisons always run, so the timing does not say which token matched.
  const [isCurrent, isPrevious] = await Promise.all([
    sameToken(given, current),
    previous ? sameToken(given, previous) : Promise.resolve(false),
  ]);
  if (!match || !(isCurrent || isPrevious)) {
    throw await failedAuthentication(
      c,
      new ApiError("UNAUTHORIZED_ERROR", "A valid operator token is required.", {
        headers: { "WWW-Authenticate": 'Bearer realm="operator"' },
      }),
    );
  }
  await next();
};
