import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { freshRenderer, rendererWorkerOptions } from "./renderer/build.ts";
import { PROCESS_HOOK_MS, PROCESS_TEST_MS } from "./test/support/node/timeouts.ts";

/** A limiter no test run can exhaust. */
const unlimited = (namespace_id: string) => ({
  namespace_id,
  simple: { limit: 1_000_000_000, period: 60 as const },
});

// Six projects: `workers` runs inside workerd with the wrangler.toml bindings (the shards, a
// second `eu` shard of its own, and the directory, each migrated in test/support/setup.ts) and
// the renderer Worker beside them; `e2e`
// runs in Node and drives `npm start` over real HTTP; `node` checks the scripts and the OpenAPI
// documents from Node; `client` tests the typed client; `browser` runs in Node and drives headless
// Chromium against a throwaway local run (test/support/node/local-service.ts); `renderer` runs
// inside workerd and calls the statement renderer Worker, built as a deploy builds it, over its
// Service Binding (renderer/test/wrangler.toml).
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  const directoryMigrations = await readD1Migrations(
    path.join(import.meta.dirname, "migrations-directory"),
  );
  const renderer = await rendererWorkerOptions(
    await freshRenderer(
      path.join(import.meta.dirname, "node_modules", ".cache", "statement-renderer"),
    ),
  );
  return {
    test: {
      // The Worker logs one JSON line per request and per failed webhook attempt or render; tests
      // read them through spies or over HTTP, not stdout.
      onConsoleLog: (log: string) =>
        !log.includes('{"request_id"') &&
        !log.startsWith('{"webhook_attempt"') &&
        !log.startsWith('{"statement_render"') &&
        !log.startsWith("[outbox]"),
      // The interactive reference is copied into the static assets first (public/docs/vendor/).
      globalSetup: ["./test/support/node/reference-assets.global.ts"],
      projects: [
        {
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  TEST_DIRECTORY_MIGRATIONS: directoryMigrations,
                  OPERATOR_TOKEN: "test-operator-token",
                  SIGNING_SECRET: "test-signing-secret-0123456789abcdefghijklmnop",
                  DIRECTORY_SECRET: "test-directory-secret-0123456789abcdefghijklm",
                  // Cards' data keys (src/payment-methods/card-secrets.ts): the test key, the only one.
                  CARD_DATA_KEYS: "test-1:TOtD5/ol1ZOlFouQc7MVe23rf3WjULWCtYq+xWy67WA=",
                  // Wallet provisioning: the test's own provider keys (private halves in
                  // test/support/wallet-keys.ts), and no Apple root, so a test's chain is its own.
                  PROVISIONING_KEY: "test-provisioning-key-0123456789abcdefghij",
                  GOOGLE_PAY_PUBLIC_KEY:
                    '{"kty":"EC","crv":"P-256","x":"jKVw3lOjYjbaqfkWbQuVEUoRxvhRvU02YsKGRuRcgrw","y":"ywqFJmcvdQK3G0Diu6JqisfmivDr9hcCeUl3fXUc24M","kid":"test-google"}',
                  SAMSUNG_PAY_PUBLIC_KEY:
                    '{"kty":"EC","crv":"P-256","x":"UbfXBRtpoQDvqVjU8zUl2eSNlKyYHzfVK6fNLCsyEvY","y":"3VIESbLh4JxfDTuH0hxIFEeKIZAwlbhhLFVhwxfx0z8","kid":"test-samsung"}',
                  // wrangler.toml's shards, and DB_03: a second `eu` shard, for moves within
                  // the jurisdiction (docs/residency.md).
                  SHARD_JURISDICTIONS: { "00": "none", "01": "none", "02": "eu", "03": "eu" },
                  MAILER: "outbox",
                  // Webhook retries in seconds, not days, so delivery tests finish quickly.
                  WEBHOOK_RETRY_BASE_SECONDS: "1",
                  // (6 s: a batch held up by a slow endpoint's timeout still leaves room for the
                  // third attempt of a loaded run.)
                  WEBHOOK_RETRY_WINDOW_SECONDS: "6",
                  WEBHOOK_DISABLE_AFTER_SECONDS: "5",
                  // Health notices in seconds too: failing after 1 s, warned 1 s before the 5 s.
                  WEBHOOK_FAILING_NOTICE_AFTER_SECONDS: "1",
                  WEBHOOK_DISABLE_WARNING_SECONDS: "1",
                  WEBHOOK_TIMEOUT_MS: "1000",
                  // As in production: only public https hosts (.dev.vars allows loopback).
                  WEBHOOK_ALLOW_LOOPBACK: "false",
                  // Render retries in seconds, not a day, so failure tests finish quickly.
                  RENDER_RETRY_BASE_SECONDS: "1",
                  RENDER_RETRY_WINDOW_SECONDS: "3",
                  // Work of a partner being moved waits a second, not half a minute.
                  MOVE_DEFER_SECONDS: "1",
                  // The fuzzer's seed and size: FUZZ_SEED=<seed> replays a run.
                  FUZZ_SEED: process.env.FUZZ_SEED ?? "",
                  FUZZ_RUNS: process.env.FUZZ_RUNS ?? "",
                },
                // The suite sends thousands of requests per key and from one address: the
                // configured limits are lifted here, and the 429 path is tested with the tight
                // limiter below swapped in (test/app/rate-limit.test.ts).
                ratelimits: {
                  PARTNER_KEY_RATE_LIMITER: unlimited("1001"),
                  PARTNER_RATE_LIMITER: unlimited("1005"),
                  AUTH_FAILURE_RATE_LIMITER: unlimited("1002"),
                  PDF_LINK_RATE_LIMITER: unlimited("1003"),
                  OPERATOR_RATE_LIMITER: unlimited("1004"),
                  SIMULATION_RATE_LIMITER: unlimited("1006"),
                  TIGHT_RATE_LIMITER: { namespace_id: "1009", simple: { limit: 3, period: 60 } },
                },
                d1Databases: { DB_03: "card-statements-eu-03" },
                // The statement renderer Worker, built as a deploy builds it: wrangler.toml's
                // Service Binding resolves to it by name.
                workers: [renderer],
              },
            }),
          ],
          test: {
            name: "workers",
            setupFiles: ["./test/support/setup.ts"],
            include: ["test/**/*.test.ts"],
            exclude: ["test/e2e/**", "test/browser/**", "test/support/**", "test/node/**"],
          },
        },
        {
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./renderer/test/wrangler.toml" },
              miniflare: { workers: [renderer] },
            }),
          ],
          test: {
            name: "renderer",
            include: ["renderer/test/**/*.test.ts"],
            exclude: ["renderer/test/node/**"],
          },
        },
        {
          test: {
            name: "e2e",
            environment: "node",
            include: ["test/e2e/**/*.test.ts"],
            // Sized for a busy 2-core machine (test/support/node/timeouts.ts).
            testTimeout: PROCESS_TEST_MS,
            hookTimeout: PROCESS_HOOK_MS,
          },
        },
        {
          test: {
            name: "client",
            environment: "node",
            include: ["packages/client/test/**/*.test.ts"],
          },
        },
        {
          test: {
            // Node-side checks: the scripts (version:new), the published OpenAPI documents, and the
            // renderer under `wrangler dev` beside the Worker that binds it.
            name: "node",
            environment: "node",
            include: ["test/node/**/*.test.ts", "renderer/test/node/**/*.test.ts"],
            testTimeout: PROCESS_TEST_MS,
            hookTimeout: PROCESS_HOOK_MS,
          },
        },
        {
          test: {
            name: "browser",
            environment: "node",
            include: ["test/browser/**/*.test.ts"],
            testTimeout: PROCESS_TEST_MS,
            hookTimeout: PROCESS_HOOK_MS,
            // Each file runs its own wrangler and Chromium: one at a time on a small machine.
            fileParallelism: false,
          },
        },
      ],
    },
  };
});
