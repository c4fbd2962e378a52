declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    TEST_DIRECTORY_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** A limiter of 3 requests per minute, swapped in to test the 429 path. */
    TIGHT_RATE_LIMITER: RateLimit;
    FUZZ_SEED: string;
    FUZZ_RUNS: string;
    /** The cards' data keys the tests run with (vitest.config.ts). */
    CARD_DATA_KEYS: string;
  }
}

/** Vite's raw imports: a file's text (a guide's recipe is checked against its test). */
declare module "*?raw" {
  const text: string;
  export default text;
}

/** Vite's inline asset imports: the file as a data: URL (the renderer's sample logos). */
declare module "*?inline" {
  const dataUrl: string;
  export default dataUrl;
}

/** Vite's eager glob imports: every module a pattern names, by path (the shard schema's files). */
interface ImportMeta {
  glob<Module>(pattern: string, options: { eager: true }): Record<string, Module>;
}
