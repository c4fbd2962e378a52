// A webhook receiver for tests inside workerd: the Worker's outbound fetch to hooks.example.com is
// answered here (the Worker runs in the tests' own isolate), by path:
//   /ok/…         200                      /fail-twice/…  500, 500, then 200
//   /always-500/… 500                      /redirect/…    302 to https://hooks.example.com/ok/
//   /slow/…       answers after the delivery timeout
//   /outage/…     503 while the test has it down (`setDown`), else 200
// and fails as the runtime fails when an endpoint cannot be reached (the exact errors workerd
// throws, the answers Cloudflare gives in production):
//   /unresolvable/…  throws "internal error; reference = …" (a DNS or TLS failure in workerd)
//   /refused/…       throws "Network connection lost." (refused or dropped)
//   /cf-<status>/…   answers Cloudflare's status, with its "error code: 1016" body for 530
import { vi } from "vitest";

export const RECEIVER = "https://hooks.example.com";

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface Receiver {
  received: Received[];
  /** What the receiver got at `path`, once `count` requests arrived (or the wait ran out). */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<Received[]>;
  /** Takes an `/outage/…` path down (503) or back up (200). */
  setDown(path: string, down: boolean): void;
  /** The answer the receiver gave each request, in order (status per `received` entry). */
  answered: number[];
  restore(): void;
}

export function startReceiver(): Receiver {
  const received: Received[] = [];
  const answered: number[] = [];
  const down = new Set<string>();
  const seen = new Map<string, number>();
  const original = globalThis.fetch;
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== RECEIVER) return original(input, init);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    received.push({ path: url.pathname, headers, body: await request.text(), at: Date.now() });
    const count = (seen.get(url.pathname) ?? 0) + 1;
    seen.set(url.pathname, count);
    const kind = url.pathname.split("/")[1];
    if (kind === "unresolvable") {
      throw Object.assign(new Error("internal error; reference = 5kq0test1reference2"), {
        remote: true,
      });
    }
    if (kind === "refused") {
      throw Object.assign(new Error("Network connection lost."), { remote: true, retryable: true });
    }
    if (kind?.startsWith("cf-")) {
      const status = Number(kind.slice(3));
      return new Response(status === 530 ? "error code: 1016" : "", { status });
    }
    if (kind === "outage") {
      const status = down.has(url.pathname) ? 503 : 200;
      answered[received.length - 1] = status;
      return new Response("", { status });
    }
    if (kind === "fail-twice") return new Response("no", { status: count <= 2 ? 500 : 200 });
    if (kind === "always-500") return new Response("no", { status: 500 });
    if (kind === "redirect") {
      return new Response(null, { status: 302, headers: { location: `${RECEIVER}/ok/elsewhere` } });
    }
    if (kind === "slow") {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, 3000);
        request.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(request.signal.reason);
        });
      });
    }
    return new Response("ok", { status: 200 });
  });
  return {
    received,
    answered,
    setDown(path, isDown) {
      if (isDown) down.add(path);
      else down.delete(path);
    },
    async waitFor(path, count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const got = received.filter((r) => r.path === path);
        if (got.length >= count || Date.now() > deadline) return got;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    restore: () => spy.mockRestore(),
  };
}
