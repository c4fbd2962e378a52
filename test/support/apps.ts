// The service's code serving another version bundle than its own, reached through its fetch
// handler with the test bindings, exactly as the Worker is.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Hono } from "hono";
import type { AppEnv } from "../../src/app/context";
import type { VersionUsageOptions } from "../../src/app/version-usage";
import { createApp } from "../../src/index";
import type { VersionBundle } from "../../src/versioning";
import type { Fetcher } from "./worker";

/** Sends requests to `app`, waiting for its work after the response (waitUntil) each time. */
export function fetcherOf(app: Hono<AppEnv>): Fetcher {
  return async (request) => {
    const ctx = createExecutionContext();
    const res = await app.fetch(request, env, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };
}

/** An app serving `bundle`, and the fetch that reaches it. */
export function appServing(bundle: VersionBundle, options: VersionUsageOptions = {}): Fetcher {
  return fetcherOf(createApp(bundle, options));
}
