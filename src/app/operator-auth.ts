// Guard of /operator/*: a bearer token compared in constant time; absent configuration hides it.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";

async function digest(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
}

/** 404 for every route when no OPERATOR_TOKEN is set; 401 for a missing or wrong token. */
export const operatorAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const expected = c.env.OPERATOR_TOKEN;
  if (!expected) throw new ApiError("NOT_FOUND_ERROR", `No route ${c.req.method} ${c.req.path}.`);
  const match = /^Bearer +(\S+) *$/i.exec(c.req.header("authorization") ?? "");
  // Hashing both sides gives equal lengths, so the comparison leaks nothing about the token.
  const [given, wanted] = await Promise.all([digest(match?.[1] ?? ""), digest(expected)]);
  if (!match || !crypto.subtle.timingSafeEqual(given, wanted)) {
    throw new ApiError("UNAUTHORIZED_ERROR", "A valid operator token is required.", {
      headers: { "WWW-Authenticate": 'Bearer realm="operator"' },
    });
  }
  await next();
};
