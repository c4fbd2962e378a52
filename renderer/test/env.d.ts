declare namespace Cloudflare {
  interface Env {
    /** The renderer, bound as the API Worker binds it (renderer/test/wrangler.toml). */
    STATEMENT_RENDERER: Service<import("../src/index.ts").StatementRenderer>;
  }
}

/** Vite's inline asset imports: the file as a data: URL. */
declare module "*?inline" {
  const dataUrl: string;
  export default dataUrl;
}
