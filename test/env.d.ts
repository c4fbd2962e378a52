declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}

/** Vite's raw imports: a file's text (the README's recipe is checked against its test). */
declare module "*?raw" {
  const text: string;
  export default text;
}
