// A webhook receiver on 127.0.0.1 for tests over real HTTP: it records every delivery.
import { createServer, type Server } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A webhook receiver on 127.0.0.1: `/ok/…` answers 200, `/fail-twice/…` 500 twice, then 200. */
export function startReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const counts = new Map<string, number>();
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === "string") headers[name] = value;
      }
      const where = req.url ?? "/";
      received.push({ path: where, headers, body });
      const count = (counts.get(where) ?? 0) + 1;
      counts.set(where, count);
      res.statusCode = where.startsWith("/fail-twice/") && count <= 2 ? 500 : 200;
      res.end();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}`, received });
    });
  });
}

export async function waitFor(received: Received[], prefix: string, count: number, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const got = received.filter((r) => r.path.startsWith(prefix));
    if (got.length >= count || Date.now() > deadline) return got;
    await sleep(50);
  }
}
