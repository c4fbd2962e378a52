// Builds Worker bundles exactly as a deploy would (`wrangler deploy --dry-run --outdir`), measures
// their size the way wrangler reports it, and profiles the production bundle's start-up. The bench,
// the renderer's build and the bundle-size check all build through here.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, symlink } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";

const run = promisify(execFile);

export const ROOT = path.resolve(import.meta.dirname, "..");
const WRANGLER = path.join(ROOT, "node_modules", ".bin", "wrangler");
const QUIET = { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", CI: "1" };

/**
 * The production budget: gzip size of everything wrangler uploads. Raised with the card programme
 * (cards, orders, order events, transaction intents and wallet provisioning, bench/README.md says
 * by how much each); what is left over catches an accidental dependency.
 */
export const BUNDLE_BUDGET_BYTES = 262 * 1024;

export interface Bundle {
  /** The entry module of the bundle. */
  main: string;
  /** Every module wrangler would upload (source maps excluded). */
  modules: string[];
  bytes: number;
  gzipBytes: number;
}

/**
 * Bundles a Worker into `outdir`. Without `entry` this is the production Worker of wrangler.toml;
 * with it, another entry point built with the same settings (the bench's floor Worker). `config`
 * names another Worker's wrangler configuration (the statement renderer's).
 */
export async function buildWorker(
  outdir: string,
  entry?: { script: string; name: string },
  config?: string,
  /** Another checkout of the service to build from (the bench's own by default). */
  root = ROOT,
): Promise<Bundle> {
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  const args = ["deploy", "--dry-run", "--outdir", outdir, "--metafile", metafileOf(outdir)];
  if (entry) args.push(entry.script, "--name", entry.name);
  if (config) args.push("--config", config);
  await run(WRANGLER, args, { cwd: root, env: QUIET, maxBuffer: 16 << 20 });
  return measureBundle(outdir);
}

/**
 * The production bundle of the service as it was at git revision `ref`: its tree is exported into
 * `dir` (this checkout's node_modules linked in) and built there, for a profile to compare with.
 * `ref` may also name another checkout's directory.
 */
export async function buildWorkerAt(ref: string, dir: string): Promise<Bundle> {
  // A directory is another checkout (an experiment's tree), built where it is.
  if (existsSync(path.join(ref, "wrangler.toml"))) {
    return buildWorker(path.join(dir, "build"), undefined, undefined, path.resolve(ref));
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, "tree"), { recursive: true });
  const archive = path.join(dir, "tree.tar");
  await run("git", ["archive", "--output", archive, ref], { cwd: ROOT });
  await run("tar", ["-xf", archive, "-C", path.join(dir, "tree")]);
  await symlink(path.join(ROOT, "node_modules"), path.join(dir, "tree", "node_modules"));
  return buildWorker(path.join(dir, "build"), undefined, undefined, path.join(dir, "tree"));
}

function metafileOf(outdir: string): string {
  return path.join(outdir, "bundle-meta.json");
}

/** The bundle's bytes by package (or by source folder), largest first, from esbuild's metafile. */
export async function bytesByPackage(outdir: string): Promise<[string, number][]> {
  const meta = JSON.parse(await readFile(metafileOf(outdir), "utf8")) as {
    outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
  };
  const totals = new Map<string, number>();
  for (const [output, { inputs }] of Object.entries(meta.outputs)) {
    if (output.endsWith(".map")) continue;
    for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
      const name =
        pkg ??
        input
          .replace(/^(\.\.\/)+/, "")
          .split("/")
          .slice(0, 2)
          .join("/");
      totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/** Sizes the modules in a build directory the way wrangler does: raw, and gzip of all of them. */
export async function measureBundle(outdir: string): Promise<Bundle> {
  const files = (await readdir(outdir)).filter((f) => /\.(m?js|cjs|wasm)$/.test(f)).sort();
  if (files.length === 0) throw new Error(`no Worker module was written to ${outdir}`);
  const contents = await Promise.all(files.map((f) => readFile(path.join(outdir, f))));
  const all = Buffer.concat(contents);
  const modules = files.map((f) => path.join(outdir, f));
  const main = modules.find((m) => /index\.m?js$/.test(m)) ?? (modules[0] as string);
  return { main, modules, bytes: all.byteLength, gzipBytes: gzipSync(all).byteLength };
}

export interface StartupProfile {
  /** CPU time the isolate was busy during start-up (ms), as `wrangler check startup` reports. */
  activeMs: number;
  /** The whole sampled start-up window (ms). */
  sampledMs: number;
}

/** `wrangler check startup`: a local CPU profile of the production Worker's start-up. */
export async function profileStartup(outfile: string): Promise<StartupProfile | null> {
  try {
    const { stdout } = await run(WRANGLER, ["check", "startup", "--outfile", outfile], {
      cwd: ROOT,
      env: QUIET,
      maxBuffer: 16 << 20,
    });
    const active = /Active:\s*([\d.]+)\s*ms/.exec(stdout);
    const sampled = /Sampled time:\s*([\d.]+)\s*ms/.exec(stdout);
    if (!active || !sampled) return null;
    return { activeMs: Number(active[1]), sampledMs: Number(sampled[1]) };
  } catch {
    // The command is recent and may be missing from an older wrangler: the report says so.
    return null;
  }
}

export function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}
