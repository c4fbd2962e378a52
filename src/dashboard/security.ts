// What every dashboard response carries (a strict CSP without inline script, no framing, no
// caching, no sniffing), and the Origin check of every form post.
import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";

const headers = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
  },
  xFrameOptions: "DENY",
  // The origin only, never a path: a confirmation page's URL holds a sign-in token. Not
  // `no-referrer`: with it, browsers send `Origin: null` on form posts, which the check refuses.
  referrerPolicy: "strict-origin",
  crossOriginResourcePolicy: "same-origin",
  crossOriginOpenerPolicy: "same-origin",
});

/** Security headers and `Cache-Control: no-store` on every dashboard response, errors included. */
export const dashboardHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await headers(c, next);
  c.res.headers.set("Cache-Control", "no-store");
};

/**
 * Refuses a state-changing request whose `Origin` is not this site's own. Browsers send `Origin`
 * on every form post; another site's page (or a request that hides where it comes from) is
 * refused before anything is read. Sign-in forms are covered too, against login CSRF.
 */
export const sameOriginForms: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== "GET" && c.req.method !== "HEAD") {
    if (c.req.header("origin") !== new URL(c.req.url).origin) {
      throw new ApiError(
        "FORBIDDEN_ERROR",
        "This form was not sent from this site. Reload the page and try again.",
      );
    }
  }
  await next();
};
