// Builds the statement renderer Worker exactly as a deploy builds it, and lists its modules for
// Miniflare: the bench and the test project run the built bundle, not the sources.
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { buildWorker, ROOT } from "../builds/worker.ts";

export const RENDERER_CONFIG = path.join(ROOT, "renderer", "wrangler.toml");
/** The Worker's name (renderer/wrangler.toml), which a Service Binding names as its service. */
export const RENDERER_NAME = "card-statement-renderer";
export const RENDERER_ENTRYPOINT = "StatementRenderer";

export interface RendererModule {
  type: "ESModule" | "Data";
  path: string;
}

/** The built Worker's modules: the bundle and the font files it imports as bytes. */
export async function rendererModules(outdir: string): Promise<RendererModule[]> {
  const fonts = (await readdir(outdir)).filter((f) => f.endsWith(".ttf")).sort();
  return [
    { type: "ESModule", path: path.join(outdir, "index.js") },
    ...fonts.map((f) => ({ type: "Data" as const, path: path.join(outdir, f) })),
  ];
}

export async function buildRenderer(outdir: string): Promise<RendererModule[]> {
  await buildWorker(outdir, undefined, RENDERER_CONFIG);
  return rendererModules(outdir);
}

/** The newest modification time under `dir` (ms). */
async function newest(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const times = await Promise.all(
    entries
      .filter((e) => e.isFile())
      .map(async (e) => (await stat(path.join(e.parentPath, e.name))).mtimeMs),
  );
  return Math.max(0, ...times);
}

/** The renderer built into `outdir`, rebuilt only when its sources or dependencies changed. */
export async function freshRenderer(outdir: string): Promise<RendererModule[]> {
  const built = await stat(path.join(outdir, "index.js")).then(
    (s) => s.mtimeMs,
    () => 0,
  );
  const sources = Math.max(
    await newest(path.join(ROOT, "renderer", "src")),
    (await stat(RENDERER_CONFIG)).mtimeMs,
    (await stat(path.join(ROOT, "package-lock.json"))).mtimeMs,
  );
  return built > sources ? rendererModules(outdir) : buildRenderer(outdir);
}

/** Miniflare's options for the built renderer, with its wrangler.toml's compatibility settings. */
export async function rendererWorkerOptions(modules: RendererModule[]) {
  const toml = await readFile(RENDERER_CONFIG, "utf8");
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  const flags = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  if (!date) throw new Error(`${RENDERER_CONFIG} has no compatibility_date`);
  return {
    name: RENDERER_NAME,
    modules,
    compatibilityDate: date,
    compatibilityFlags: [...flags.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string),
  };
}
