// `npm start` restarts the local runtime when its memory passes LOCAL_RUNTIME_MAX_MB, between
// requests, its state on disk carried over (scripts/runtime-restart.ts). The rule is a pure
// function; the proxy is tried against fake runtimes: HTTP servers in this process that keep their
// state in a file, as the real one keeps D1 and R2 in .wrangler/state.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import {
  DEFAULT_BOUND_MB,
  DRAIN_PATIENCE_MS,
  MIN_BOUND_MB,
  nextStep,
  type RestartingProxy,
  type Runtime,
  readMemoryBound,
  serveWithRestarts,
  workerdMemory,
} from "../../scripts/runtime-restart.ts";

const MB = 1024 * 1024;

describe("the restart rule", () => {
  const state = { memoryBytes: 100 * MB, boundBytes: 200 * MB, inFlight: 3, dueSinceMs: null };

  it("serves while the runtime's memory is within its bound", () => {
    expect(nextStep({ ...state, nowMs: 0 })).toBe("serve");
    expect(nextStep({ ...state, memoryBytes: 200 * MB, nowMs: 0 })).toBe("serve");
  });

  it("restarts past the bound at once when nothing is in flight, else drains first", () => {
    const over = { ...state, memoryBytes: 201 * MB, nowMs: 1000 };
    expect(nextStep({ ...over, inFlight: 0 })).toBe("restart");
    expect(nextStep(over)).toBe("drain");
  });

  it("keeps a due restart due after the memory reading falls, until nothing is in flight", () => {
    const due = { ...state, dueSinceMs: 1000, nowMs: 2000 };
    expect(nextStep(due)).toBe("drain");
    expect(nextStep({ ...due, inFlight: 0 })).toBe("restart");
  });

  it("stops waiting for requests in flight after its patience", () => {
    const due = { ...state, dueSinceMs: 1000 };
    expect(nextStep({ ...due, nowMs: 1000 + DRAIN_PATIENCE_MS - 1 })).toBe("drain");
    expect(nextStep({ ...due, nowMs: 1000 + DRAIN_PATIENCE_MS })).toBe("restart");
  });

  it("never restarts without a bound", () => {
    expect(nextStep({ ...state, boundBytes: null, memoryBytes: 10_000 * MB, nowMs: 0 })).toBe(
      "serve",
    );
  });

  it("reads the bound from LOCAL_RUNTIME_MAX_MB, with a default, 0 turning it off", () => {
    expect(readMemoryBound({})).toBe(DEFAULT_BOUND_MB * MB);
    expect(readMemoryBound({ LOCAL_RUNTIME_MAX_MB: "" })).toBe(DEFAULT_BOUND_MB * MB);
    expect(readMemoryBound({ LOCAL_RUNTIME_MAX_MB: "800" })).toBe(800 * MB);
    expect(readMemoryBound({ LOCAL_RUNTIME_MAX_MB: "0" })).toBeNull();
    expect(readMemoryBound({ LOCAL_RUNTIME_MAX_MB: String(MIN_BOUND_MB) })).toBe(MIN_BOUND_MB * MB);
    expect(() => readMemoryBound({ LOCAL_RUNTIME_MAX_MB: "300" })).toThrow(
      `LOCAL_RUNTIME_MAX_MB must be at least ${MIN_BOUND_MB} (MB)`,
    );
    for (const bad of ["1.5GB", "-1", "lots"]) {
      expect(() => readMemoryBound({ LOCAL_RUNTIME_MAX_MB: bad })).toThrow(
        `LOCAL_RUNTIME_MAX_MB must be a whole number of MB (0: no restarts), got "${bad}"`,
      );
    }
  });

  it("reads no workerd memory for a process without workerd descendants", () => {
    expect(workerdMemory(process.pid)).toBe(0);
  });
});

describe("the restarting proxy", () => {
  let dir = "";
  let proxy: RestartingProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A fake runtime per start: `/set?v=` writes the state file, `/get` reads it, `/slow` answers
   * when `release()` is called; every answer names the runtime that gave it. Its memory is what
   * the test sets.
   */
  function fakeRuntimes(stateFile: string) {
    let started = 0;
    let memory = 0;
    const slow: (() => void)[] = [];
    const servers: http.Server[] = [];
    const start = async (): Promise<Runtime> => {
      started += 1;
      const generation = started;
      const server = http.createServer((req, res) => {
        const url = new URL(req.url ?? "/", "http://x");
        const answer = (text: string) =>
          res.writeHead(200, { "x-runtime": String(generation) }).end(text);
        if (url.pathname === "/set") {
          writeFileSync(stateFile, url.searchParams.get("v") ?? "");
          answer("set");
        } else if (url.pathname === "/get") {
          answer(existsSync(stateFile) ? readFileSync(stateFile, "utf8") : "");
        } else if (url.pathname === "/slow") {
          slow.push(() => answer("slow done"));
        } else {
          answer(`${req.method} ${req.headers.host}`);
        }
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
      servers.push(server);
      memory = 10 * MB;
      return {
        // A server listening on a TCP port has an address object, never a pipe's string.
        port: (server.address() as AddressInfo).port,
        memoryBytes: () => memory,
        stop: () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      };
    };
    return {
      start,
      started: () => started,
      setMemory: (bytes: number) => {
        memory = bytes;
      },
      release: () => {
        for (const done of slow.splice(0)) done();
      },
      pendingSlow: () => slow.length,
    };
  }

  async function until(condition: () => boolean, what: string): Promise<void> {
    for (let i = 0; i < 200 && !condition(); i++) await sleep(10);
    if (!condition()) throw new Error(`timed out waiting for ${what}`);
  }

  it("passes requests on as they came, the Host header kept", async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "runtime-restart-"));
    const runtimes = fakeRuntimes(path.join(dir, "state"));
    proxy = await serveWithRestarts({ port: 0, boundBytes: 100 * MB, start: runtimes.start });
    const res = await fetch(`http://127.0.0.1:${proxy.port}/anything`, { method: "POST" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(`POST 127.0.0.1:${proxy.port}`);
    expect(runtimes.started()).toBe(1);
  });

  it("restarts past the bound between requests, its state kept, with a line saying so", async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "runtime-restart-"));
    const runtimes = fakeRuntimes(path.join(dir, "state"));
    const lines: string[] = [];
    proxy = await serveWithRestarts({
      port: 0,
      boundBytes: 100 * MB,
      start: runtimes.start,
      checkEveryMs: 20,
      log: (line) => lines.push(line),
    });
    const base = `http://127.0.0.1:${proxy.port}`;
    expect(await (await fetch(`${base}/set?v=kept`)).text()).toBe("set");

    // A request in flight when the memory passes the bound.
    const inFlight = fetch(`${base}/slow`);
    await until(() => runtimes.pendingSlow() === 1, "the slow request to arrive");
    runtimes.setMemory(150 * MB);
    await until(() => proxy?.due() === true, "the restart to be due");
    await sleep(100);
    // Due, but nothing is cut: the runtime is the first still, and a new request waits.
    expect(runtimes.started()).toBe(1);
    let laterAnswered = false;
    const later = fetch(`${base}/get`).then(async (res) => {
      laterAnswered = true;
      return { runtime: res.headers.get("x-runtime"), body: await res.text() };
    });
    await sleep(100);
    expect(laterAnswered).toBe(false);
    expect(runtimes.started()).toBe(1);

    // The request in flight finishes on the first runtime; then the restart, then the one waiting.
    runtimes.release();
    const first = await inFlight;
    expect(first.headers.get("x-runtime")).toBe("1");
    expect(await first.text()).toBe("slow done");
    expect(await later).toEqual({ runtime: "2", body: "kept" });
    expect(runtimes.started()).toBe(2);
    expect(proxy.restarts()).toBe(1);
    expect(lines[0]).toBe(
      "↻ The local runtime holds 150 MB, past its bound of 100 MB (LOCAL_RUNTIME_MAX_MB): " +
        "restarting it between requests; its state stays on disk in .wrangler/state.",
    );
    expect(lines[1]).toMatch(/^↻ Restarted in \d+\.\d s; 1 request waited for it\.$/);

    // Back under the bound, it serves without restarting again.
    await sleep(100);
    const after = await fetch(`${base}/get`);
    expect(await after.text()).toBe("kept");
    expect(after.headers.get("x-runtime")).toBe("2");
    expect(runtimes.started()).toBe(2);
  });

  it("does not restart when restarts are off", async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "runtime-restart-"));
    const runtimes = fakeRuntimes(path.join(dir, "state"));
    proxy = await serveWithRestarts({
      port: 0,
      boundBytes: null,
      start: runtimes.start,
      checkEveryMs: 20,
      log: () => {},
    });
    runtimes.setMemory(10_000 * MB);
    await sleep(100);
    const res = await fetch(`http://127.0.0.1:${proxy.port}/get`);
    expect(res.headers.get("x-runtime")).toBe("1");
    expect(runtimes.started()).toBe(1);
  });
});
