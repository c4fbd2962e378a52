// Reaching the Worker in tests: every request goes through its fetch handler (the service's own,
// unless a test serves another app).
import { exports } from "cloudflare:workers";

export const BASE = "http://api.test";
export const OPERATOR_TOKEN = "test-operator-token";

/** Sends a request to a Worker: the service's own, unless another app's fetch is given. */
export type Fetcher = (request: Request) => Promise<Response>;

/** The service's Worker. */
export const serviceFetch: Fetcher = (req) => exports.default.fetch(req);

/** Sends a request to the Worker (or to `fetcher`). */
export function request(
  path: string,
  init: RequestInit = {},
  fetcher: Fetcher = serviceFetch,
): Promise<Response> {
  return fetcher(new Request(`${BASE}${path}`, init));
}
