// The operator API's door: every /operator/* request passes a rate limit per client address and
// the operator's bearer token, then reaches the features' operator routes (src/operator-routes.ts
// lists them); any other /operator/* path is answered 404. The token is compared in constant time,
// and while it is not configured the whole API hides behind 404. During a rotation the previous
// token is accepted too, until it is deleted. A deployed Worker (`DEPLOYMENT = "production"`, a var
// only `npm run deploy` sets) also hides it behind 404 while its token is shorter than 32
// characters, and logs why; local runs, which never set the var, keep their short token.
import { Hono, type MiddlewareHandler } from "hono";
import type { AppEnv, Bindings } from "./context";
import { ApiError, routeNotFound } from "./errors";
import { failedAuthentication, limitPerClientIp } from "./rate-limit";
import { RATE_LIMITS } from "./rate-policies";

async function digest(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
}

/** Constant-time: hashing both sides gives equal lengths, so nothing leaks about the token. */
async function sameToken(given: ArrayBuffer, expected: string): Promise<boolean> {
  return crypto.subtle.timingSafeEqual(given, await digest(expected));
}

/** The fewest characters an operator token of a deployment may have (as the deploy checks). */
export const MIN_DEPLOYED_TOKEN_LENGTH = 32;

/**
 * The token `name` names, or undefined when there is none, or when this Worker is deployed and the
 * token is too short to guard it: that is logged (by name and length, never the token), and the
 * token is treated as absent.
 */
function usableToken(env: Bindings, name: "OPERATOR_TOKEN" | "OPERATOR_TOKEN_PREVIOUS") {
  const token = env[name];
  if (!token) return undefined;
  if (env.DEPLOYMENT !== "production" || token.length >= MIN_DEPLOYED_TOKEN_LENGTH) return token;
  console.error(
    JSON.stringify({
      operator_api: "refused",
      alert: true,
      reason:
        `${name} has ${token.length} characters; a deployment needs at least ` +
        `${MIN_DEPLOYED_TOKEN_LENGTH}, so it is not used (the operator API answers 404).`,
    }),
  );
  return undefined;
}

/**
 * 404 for every route when no usable OPERATOR_TOKEN is set; 401 for a missing or wrong token (429
 * while a client address is over the failed-authentication limit; the right token is still
 * served).
 */
const operatorAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const current = usableToken(c.env, "OPERATOR_TOKEN");
  if (!current) throw new ApiError("NOT_FOUND_ERROR", `No route ${c.req.method} ${c.req.path}.`);
  const match = /^Bearer +(\S+) *$/i.exec(c.req.header("authorization") ?? "");
  const given = await digest(match?.[1] ?? "");
  const previous = usableToken(c.env, "OPERATOR_TOKEN_PREVIOUS");
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

/**
 * The operator API: `routes` (each feature's operator routes, which declare their whole
 * /operator/v1 paths) behind the rate limit and the operator's token.
 *
 * @example
 * app.route("/", operatorApi(OPERATOR_ROUTES));
 */
export function operatorApi(routes: readonly Hono<AppEnv>[]): Hono<AppEnv> {
  const api = new Hono<AppEnv>().use(
    "/operator/*",
    limitPerClientIp(RATE_LIMITS.operator),
    operatorAuth,
  );
  for (const feature of routes) api.route("/", feature);
  return api.all("/operator/*", (c) => {
    throw routeNotFound(c.req.method, c.req.path);
  });
}
