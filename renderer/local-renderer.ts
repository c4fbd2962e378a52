// The renderer Worker and its caller (renderer/test/caller-worker.ts, standing in for the API
// Worker) built as a deploy builds them and served by Miniflare (workerd) from Node: for the
// bench and for rendering sample documents.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { buildWorker, ROOT } from "../builds/worker.ts";
import {
  buildRenderer,
  RENDERER_ENTRYPOINT,
  RENDERER_NAME,
  rendererWorkerOptions,
} from "./build.ts";
import type { StatementDocumentInput } from "./src/statement-document.ts";

const CALLER = "statement-renderer-caller";

export interface LocalRenderer {
  /** Renders over the Service Binding; the logo is read from `logoPath` when given. */
  render(input: StatementDocumentInput, logo?: LogoFile): Promise<Uint8Array>;
  /** The built renderer's modules (what a deploy uploads). */
  modules: string[];
  mf: Miniflare;
}

export interface LogoFile {
  path: string;
  media_type: "image/png" | "image/jpeg";
  alt_text: string;
}

export async function startLocalRenderer(options: {
  buildDir: string;
  inspectorPort?: number;
  /** V8 flags for workerd, such as a heap limit. */
  v8Flags?: string[];
}): Promise<LocalRenderer> {
  const rendererDir = path.join(options.buildDir, "renderer");
  const renderer = await rendererWorkerOptions(await buildRenderer(rendererDir));
  const caller = await buildWorker(
    path.join(options.buildDir, "renderer-caller"),
    undefined,
    path.join(ROOT, "renderer", "test", "wrangler.toml"),
  );
  // Miniflare passes V8 flags to workerd only through this variable, read as it builds the config.
  const flagsBefore = process.env.MINIFLARE_WORKERD_V8_FLAGS;
  if (options.v8Flags) process.env.MINIFLARE_WORKERD_V8_FLAGS = options.v8Flags.join(" ");
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      ...(options.inspectorPort ? { inspectorPort: options.inspectorPort } : {}),
      enableDevRegistry: false,
      workers: [
        {
          name: CALLER,
          modules: true,
          scriptPath: caller.main,
          // Module names are paths relative to this root: outside the working directory they
          // would start with "../", which workerd refuses.
          modulesRoot: path.dirname(caller.main),
          compatibilityDate: renderer.compatibilityDate,
          compatibilityFlags: renderer.compatibilityFlags,
          serviceBindings: {
            STATEMENT_RENDERER: { name: RENDERER_NAME, entrypoint: RENDERER_ENTRYPOINT },
          },
          unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
        },
        { ...renderer, modulesRoot: rendererDir },
      ],
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  await mf.ready;
  if (flagsBefore === undefined) delete process.env.MINIFLARE_WORKERD_V8_FLAGS;
  else process.env.MINIFLARE_WORKERD_V8_FLAGS = flagsBefore;
  const url = await mf.unsafeGetDirectURL(CALLER);
  const logos = new Map<string, string>();

  return {
    async render(input, logo) {
      let body: object = input;
      if (logo) {
        const base64 = logos.get(logo.path) ?? (await readFile(logo.path)).toString("base64");
        logos.set(logo.path, base64);
        const { path: _, ...described } = logo;
        body = { ...input, product: { ...input.product, logo: { ...described, base64 } } };
      }
      const res = await fetch(url, { method: "POST", body: JSON.stringify(body) });
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (res.status !== 200) throw new Error(`render: ${res.status}`);
      return bytes;
    },
    modules: renderer.modules.map((m) => m.path),
    mf,
  };
}
