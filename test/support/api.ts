// Calling the APIs in tests: the partner API, each /v2 response checked against the reference of
// its version, and the operator API with the test operator token.
import { expect } from "vitest";
import { assertMatchesReference, keyEnvironment } from "./contract";
import { type Fetcher, OPERATOR_TOKEN, request } from "./worker";

/** Calls the operator API with the test operator token. */
export function operator(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const init: RequestInit = {
    method,
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, ...headers },
  };
  if (body instanceof Uint8Array || typeof body === "string") init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  return request(`/operator/v1${path}`, init);
}

export interface ApiOptions {
  key?: string;
  /** `Bearer` (default) or `Basic` (key as username, empty password). */
  scheme?: "Bearer" | "Basic";
  version?: string;
  merchantKey?: string;
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Another app than the service's (see `fetcherOf` in test/support/apps.ts). */
  fetch?: Fetcher;
}

/**
 * Calls the partner API. Every /v2 response is also checked against the OpenAPI reference of the
 * version it names, for the key's environment, so a response that drifts from its documentation
 * fails the test.
 */
export async function api(path: string, options: ApiOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) {
    headers.authorization =
      options.scheme === "Basic" ? `Basic ${btoa(`${options.key}:`)}` : `Bearer ${options.key}`;
  }
  if (options.version !== undefined) headers["x-service-version"] = options.version;
  if (options.merchantKey !== undefined) headers["x-service-merchant-key"] = options.merchantKey;
  const init: RequestInit = { method: options.method ?? "GET", headers };
  if (options.body !== undefined) {
    init.body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await request(path, init, options.fetch);
  const environment = keyEnvironment(headers.authorization);
  await assertMatchesReference(
    path,
    init.method as string,
    res.clone(),
    options.fetch,
    environment,
  );
  return res;
}

/** Reads a JSON body and checks the status in one step, with the body in the failure message. */
export async function expectJson<T = Record<string, unknown>>(
  res: Response,
  status: number,
): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** An error in the ApiError envelope, as a test reads it. */
export interface ErrorBody {
  error: { type: string; message: string; details?: string[]; param?: string };
}

/** A statements page, as a test reads it. */
export interface StatementList {
  data: Record<string, unknown>[];
  has_more: boolean;
}
