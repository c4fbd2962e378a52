// `npm start` as a developer runs it, for end-to-end tests: its own process group (so Ctrl-C
// reaches all of it), its whole output kept, and the banner awaited. `scratchCopy` gives it a
// checkout of its own, so a test's local run never shares .wrangler/ (its database, demo keys and
// demo.env) with the developer's.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { STARTUP_MS } from "./timeouts.ts";

export const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
export { STARTUP_MS } from "./timeouts.ts";

/** The environment a developer's shell has: none of vitest's variables. */
export function shellEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of Object.keys(env)) {
    if (name === "NODE_ENV" || name.startsWith("VITEST")) delete env[name];
  }
  return env;
}

/** The working tree's files as a fresh clone of it would have them: tracked or not ignored. */
export function checkoutFiles(): string[] {
  const listed = spawnSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  );
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  return listed.stdout.split("\0").filter(Boolean);
}

/**
 * A temporary copy of the working tree as a fresh clone has it (edits included), with the
 * installed node_modules linked in; `files` are the ones copied. `modules: "hardlinks"` gives the
 * copy a tree of hard links to node_modules instead of a link to the folder: a `wrangler dev` of
 * the copy then reads no file of the working tree (through a linked node_modules, esbuild reads
 * and watches the working tree's own package.json, and any edit of it reloads the Worker).
 */
export function scratchCopy(options: { modules?: "link" | "hardlinks" } = {}): {
  root: string;
  files: string[];
  remove(): void;
} {
  const root = mkdtempSync(path.join(os.tmpdir(), "checkout-"));
  const files = checkoutFiles();
  for (const file of files) {
    mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    try {
      copyFileSync(path.join(ROOT, file), path.join(root, file));
    } catch {
      // Listed but deleted in the working tree: a fresh clone of these edits lacks it too.
    }
  }
  const modules = path.join(root, "node_modules");
  const hardlinked =
    options.modules === "hardlinks" &&
    spawnSync("cp", ["-al", path.join(ROOT, "node_modules"), modules]).status === 0;
  if (!hardlinked) {
    rmSync(modules, { recursive: true, force: true });
    symlinkSync(path.join(ROOT, "node_modules"), modules, "dir");
  }
  return { root, files, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * A command in a process group of its own, as a terminal runs it: its output kept as it comes,
 * Ctrl-C (SIGINT to the group) to stop it, SIGKILL if it does not stop within 10 s.
 */
export class ProcessGroup {
  readonly child: ChildProcess;
  output = "";
  readonly exited: Promise<number | null>;

  constructor(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
    this.child = spawn(command, args, {
      cwd,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const collect = (chunk: Buffer) => {
      this.output += chunk.toString();
    };
    this.child.stdout?.on("data", collect);
    this.child.stderr?.on("data", collect);
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Ctrl-C in the terminal; resolves with the exit code once the group's leader has stopped. */
  async interrupt(): Promise<number | null> {
    if (!this.running) return this.child.exitCode;
    this.signal("SIGINT");
    const killer = setTimeout(() => this.kill(), 10_000);
    const code = await this.exited;
    clearTimeout(killer);
    return code;
  }

  kill(): void {
    this.signal("SIGKILL");
  }

  private signal(signal: NodeJS.Signals): void {
    try {
      if (this.child.pid) process.kill(-this.child.pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/** `npm start` on a port, in `cwd`. */
export class NpmStart extends ProcessGroup {
  constructor(cwd: string, port: number) {
    super("npm", ["start"], cwd, shellEnv({ PORT: String(port) }));
  }

  /** Resolves with the printed curl's key and URL once the banner is out; fails if it dies. */
  async ready(): Promise<{ key: string; url: string }> {
    const deadline = Date.now() + STARTUP_MS;
    while (Date.now() < deadline) {
      const match = /curl -s -u (\S+): '(\S+)'/.exec(this.output);
      if (match?.[1] && match[2] && this.output.includes("Press Ctrl-C to stop.")) {
        return { key: match[1], url: match[2] };
      }
      if (!this.running) break;
      await sleep(200);
    }
    throw new Error(`npm start did not become ready:\n${this.output.slice(-4000)}`);
  }
}
