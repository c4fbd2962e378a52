// Failed webhook deliveries in a real local run (`npm start`, workerd), failing for real: a name
// that does not resolve, a refused connection, TLS spoken to a plain HTTP server, no answer, and
// a 503. Each attempt is recorded with a reason in words and logged as exactly one line, and
// npm start shows no stack trace, internal error reference or uncaught error.
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/node/local-service.ts";
import { NpmStart, STARTUP_MS, scratchCopy } from "../support/node/npm-start.ts";

interface Attempt {
  webhook_endpoint_id: string;
  status: string;
  response_status?: number;
  error?: string;
}

interface AttemptLine {
  webhook_attempt: string;
  webhook_endpoint_id: string;
  url: string;
  event_id: string;
  attempt: number;
  reason: string;
  next_attempt_at: string | null;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    });
  });
}

describe("a failed webhook delivery in a local run", () => {
  const checkout = scratchCopy();
  const servers: Server[] = [];
  let run: NpmStart;
  let base: string;
  let key: string;
  /** Each endpoint's URL and what its attempts must record. */
  const cases: { url: string; status: string; response_status?: number; error: string }[] = [];

  const api = (route: string, init: RequestInit = {}) =>
    fetch(`${base}${route}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    });

  beforeAll(async () => {
    // Retries within seconds, so every delivery gives up during the test.
    const vars = readFileSync(path.join(checkout.root, ".dev.vars.example"), "utf8");
    const quick = ["WEBHOOK_TIMEOUT_MS=1000", "WEBHOOK_RETRY_BASE_SECONDS=1"];
    quick.push("WEBHOOK_RETRY_WINDOW_SECONDS=3");
    writeFileSync(path.join(checkout.root, ".dev.vars"), `${vars}\n${quick.join("\n")}\n`);

    const hanging = createServer(() => {});
    const plain = createServer((_req, res) => res.end("plain HTTP"));
    const unavailable = createServer((_req, res) => res.writeHead(503).end());
    servers.push(hanging, plain, unavailable);
    const [hang, http, down, closed] = [
      await listen(hanging),
      await listen(plain),
      await listen(unavailable),
      await freePort(),
    ];
    cases.push(
      {
        url: "https://hooks.nowhere.zz/statements",
        status: "failed",
        error: "DNS lookup or TLS handshake failed for hooks.nowhere.zz",
      },
      {
        url: `http://127.0.0.1:${closed}/statements`,
        status: "failed",
        error: `connection to 127.0.0.1:${closed} refused or lost before an answer`,
      },
      {
        url: `https://127.0.0.1:${http}/statements`,
        status: "failed",
        error: `TLS handshake with 127.0.0.1:${http} failed`,
      },
      {
        url: `http://127.0.0.1:${hang}/statements`,
        status: "timed_out",
        error: `no answer from 127.0.0.1:${hang} within 1000 ms`,
      },
      {
        url: `http://127.0.0.1:${down}/statements`,
        status: "failed",
        response_status: 503,
        error: "endpoint answered HTTP 503",
      },
    );

    const port = await freePort();
    run = new NpmStart(checkout.root, port);
    await run.ready();
    base = `http://localhost:${port}`;
    const env = readFileSync(path.join(checkout.root, ".wrangler", "demo.env"), "utf8");
    key = /^export DEMO_KEY=(\S+)$/m.exec(env)?.[1] ?? "";
  }, STARTUP_MS);

  afterAll(async () => {
    await run?.interrupt();
    for (const server of servers) server.close();
    checkout.remove();
  });

  it("records a reason in words, logs one line per attempt, and no stack", async () => {
    const endpoints: string[] = [];
    for (const { url } of cases) {
      const res = await api("/v2/webhook_endpoints", {
        method: "POST",
        body: JSON.stringify({ url }),
      });
      expect(res.status, await res.clone().text()).toBe(201);
      endpoints.push(((await res.json()) as { webhook_endpoint_id: string }).webhook_endpoint_id);
    }
    const operator = await fetch(`${base}/operator/v1/import`, {
      method: "POST",
      headers: { authorization: "Bearer dev-operator-token", "content-type": "application/json" },
      body: JSON.stringify({
        statements: [
          {
            statement_id: "st_demo_failures",
            account_id: "acc_demo_travel",
            period_end_date: "2026-10-31T23:59:59Z",
            currency: "USD",
            statement_balance: 0,
          },
        ],
      }),
    });
    expect(operator.status).toBe(200);
    // The statement's statement.created event (its statement.pdf_available follows once the
    // service has rendered its document, and fails the same way).
    const events = await api("/v2/events?limit=10");
    const listedEvents = (await events.json()) as {
      data: { event_id: string; type: string; data: { statement: { statement_id: string } } }[];
    };
    const eventId = listedEvents.data.find(
      (e) => e.type === "statement.created" && e.data.statement.statement_id === "st_demo_failures",
    )?.event_id;
    expect(eventId).toBeDefined();

    // Every delivery gives up (its last line says nothing follows) within the short window.
    const lines = (): AttemptLine[] =>
      run.output
        .split("\n")
        .flatMap((line) => /(\{"webhook_attempt".*\})/.exec(line)?.[1] ?? [])
        .map((line) => JSON.parse(line) as AttemptLine)
        .filter((line) => line.event_id === eventId);
    const deadline = Date.now() + 45_000;
    const gaveUp = () =>
      endpoints.every((id) =>
        lines().some((l) => l.webhook_endpoint_id === id && !l.next_attempt_at),
      );
    while (!gaveUp() && Date.now() < deadline) await sleep(200);
    expect(gaveUp(), run.output.slice(-3000)).toBe(true);
    await sleep(500);

    const listed = await api(`/v2/events/${eventId}/delivery_attempts?limit=100`);
    const attempts = ((await listed.json()) as { data: Attempt[] }).data;
    for (const [i, id] of endpoints.entries()) {
      const expected = cases[i];
      const recorded = attempts.filter((a) => a.webhook_endpoint_id === id);
      expect(recorded.length, expected?.url).toBeGreaterThanOrEqual(2);
      for (const attempt of recorded) {
        expect(attempt).toMatchObject({
          status: expected?.status,
          error: expected?.error,
          ...(expected?.response_status ? { response_status: expected.response_status } : {}),
        });
      }
      const logged = lines().filter((l) => l.webhook_endpoint_id === id);
      expect(logged.map((l) => l.attempt)).toEqual(recorded.map((_, n) => n + 1));
      for (const line of logged) {
        expect(line).toMatchObject({
          webhook_attempt: expected?.status,
          url: expected?.url,
          event_id: eventId,
          reason: expected?.error,
        });
      }
    }
    expect(run.output).not.toMatch(/\bstack:|Uncaught|internal error|reference =|\[ERROR\]|✘/);
  });
});
