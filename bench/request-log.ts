// The request log as the bench sees it: the storage a logged request takes (the database's growth
// over the requests the timed arms logged, rows, indexes and daily counts together), and how long
// a request takes to appear in the log after its response (through the queue and its consumer).

import { MAIN_ACCOUNT } from "./data.ts";
import { statementsPath } from "./probe.ts";
import type { BenchServer } from "./serve.ts";

export interface LogSize {
  /** The database file's size (D1's `size_after`). */
  bytes: number;
  /** Requests in the log. */
  logged: number;
}

export interface RequestLogFigures {
  /** Milliseconds from a response to its request being in the log, per probe. */
  delaysMs: number[];
  /** Requests logged while the timed arms ran, and the bytes the database grew by meanwhile. */
  logged: number;
  grewBytes: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The log's size in the Worker's database, once the queue has delivered what it holds. */
export async function settledLogSize(server: BenchServer, worker: string): Promise<LogSize> {
  const db = await server.database(worker);
  let last = -1;
  let steady = 0;
  for (;;) {
    const row = await db.prepare("SELECT count(*) AS n FROM request_logs").first<{ n: number }>();
    const logged = row?.n ?? 0;
    // The consumer writes a batch at least every max_batch_timeout (2 s): 4 s without change.
    steady = logged === last ? steady + 1 : 0;
    last = logged;
    if (steady >= 8) {
      const { meta } = await db.prepare("SELECT 1").run();
      return { bytes: meta.size_after ?? 0, logged };
    }
    await pause(500);
  }
}

/**
 * Sends `count` statements requests one at a time, each with an id of its own, and measures how
 * long each takes to be in the log after its response arrived.
 */
export async function logDelays(
  server: BenchServer,
  key: string,
  count: number,
): Promise<number[]> {
  const db = await server.database("api");
  const delays: number[] = [];
  for (let i = 0; i < count; i++) {
    const requestId = `bench-log-delay-${Date.now()}-${i}`;
    const res = await fetch(new URL(statementsPath(MAIN_ACCOUNT, "limit=10"), server.url("api")), {
      headers: { authorization: `Bearer ${key}`, "x-request-id": requestId },
    });
    await res.arrayBuffer();
    const answered = performance.now();
    for (;;) {
      const found = await db
        .prepare("SELECT 1 AS found FROM request_logs WHERE request_id = ?")
        .bind(requestId)
        .first();
      if (found) break;
      if (performance.now() - answered > 60_000) throw new Error(`${requestId} was not logged`);
      await pause(20);
    }
    delays.push(performance.now() - answered);
    await pause(700);
  }
  return delays;
}
