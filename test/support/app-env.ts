// Calls the Worker's app directly with an altered environment: another configuration, a tight
// rate limiter, or storage bindings that fail on demand.
import { env } from "cloudflare:workers";
import app from "../../src/index";
import { BASE } from "./worker";

/** An execution context whose background work the test can await. */
export function executionContext(): ExecutionContext & { settled(): Promise<void> } {
  const pending: Promise<unknown>[] = [];
  return {
    waitUntil(promise: Promise<unknown>) {
      pending.push(promise.catch(() => undefined));
    },
    passThroughOnException() {},
    props: {},
    async settled() {
      await Promise.all(pending);
    },
  } as unknown as ExecutionContext & { settled(): Promise<void> };
}

/** Sends a request to the app with `overrides` laid over the test environment. */
export function fetchWithEnv(
  path: string,
  init: RequestInit,
  overrides: Record<string, unknown>,
): Promise<Response> {
  return Promise.resolve(
    app.fetch(new Request(`${BASE}${path}`, init), { ...env, ...overrides }, executionContext()),
  );
}
