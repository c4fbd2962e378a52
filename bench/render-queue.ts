// Statement rendering through the queue, locally: one operator import of 5,000 statements (the
// most one import takes) of a product that renders its documents, over `wrangler dev` running
// the API Worker and the renderer Worker (Miniflare runs the render queue with the wrangler.toml
// consumer settings). Prints how long the import took, how long until every statement had its
// document, from the start of the import, and the queue's batches (how many, the longest).
//   npm run bench:render-queue [-- --statements 5000]
// wrangler dev serves a copy of the working tree, its node_modules hard links: it reloads the
// Worker whenever a file it watches changes, and a reload empties Miniflare's queues, whose
// messages live in memory; a run once stopped rendering that way, its renders left pending with
// nothing to send them (bench/README.md, "Through the queue"). An edit made while the bench runs
// no longer reaches it, and a reload is reported by name all the same.
import { setTimeout as sleep } from "node:timers/promises";
import { stripVTControlCharacters } from "node:util";
import { startLocalService } from "../test/support/node/local-service.ts";
import { scratchCopy } from "../test/support/node/npm-start.ts";

const count = Number(process.argv[process.argv.indexOf("--statements") + 1]) || 5000;
const ACCOUNTS = 50;

/** Statement `i`: account i mod 50, one month a statement, every line of a busy cycle. */
function statement(i: number) {
  const account = i % ACCOUNTS;
  const month = Math.floor(i / ACCOUNTS);
  const end = new Date(Date.UTC(2026, 10 - month, 0, 23, 59, 59));
  const purchases = 10_000 + ((i * 7919) % 90_000);
  return {
    statement_id: `st_bench_${String(i).padStart(5, "0")}`,
    account_id: `acc_bench_${account}`,
    period_end_date: end.toISOString(),
    due_date: new Date(end.getTime() + 25 * 86_400_000).toISOString(),
    currency: "USD",
    previous_balance: 50_000,
    purchases,
    payments: -50_000,
    interest: 1_234,
    statement_balance: purchases + 1_234,
    minimum_due: 2_500,
    overdue_amount: 0,
  };
}

/** What the run printed that tells how the queue went: its batches, reloads, render failures. */
const queue = {
  batches: 0,
  longestBatchMs: 0,
  lastBatchAt: 0,
  reloads: 0,
  renderLines: [] as string[],
};
const watch = (raw: string) => {
  const line = stripVTControlCharacters(raw);
  const batch = /QUEUE statement-renders (\d+)\/(\d+) \((\d+)ms\)/.exec(line);
  if (batch) {
    queue.batches += 1;
    queue.longestBatchMs = Math.max(queue.longestBatchMs, Number(batch[3]));
    queue.lastBatchAt = performance.now();
  }
  if (line.includes("Reloading local server")) queue.reloads += 1;
  if (line.includes('"statement_render"')) queue.renderLines.push(line);
};

const copy = scratchCopy({ modules: "hardlinks" });
// The five-minute cron stays unfired: its sweep re-sends renders pending for five minutes, which
// on a busy machine are the tail of this very backlog, still queued (a deployed queue drains it
// far sooner); a lost message is reported below instead.
const service = await startLocalService({ root: copy.root, cron: false, onLine: watch });
try {
  const operator = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${service.base}/operator/v1${route}`, {
      method,
      headers: {
        authorization: `Bearer ${service.operatorToken}`,
        "content-type": "application/json",
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<{ data: unknown[]; has_more: boolean }>;
  };
  await operator("POST", "/import", {
    partners: [
      {
        partner_id: "bench",
        name: "Bench",
        products: [{ merchant_key: "mk_bench", name: "Bench Card", documents: "rendered" }],
      },
    ],
    customers: [
      {
        customer_id: "cus_b",
        partner_id: "bench",
        environment: "sandbox",
        merchant_key: "mk_bench",
      },
    ],
    accounts: Array.from({ length: ACCOUNTS }, (_, a) => ({
      account_id: `acc_bench_${a}`,
      customer_id: "cus_b",
    })),
  });
  // Warm the renderer isolate (its first document parses the fonts), as a deployed one is.
  await operator("POST", "/import", { statements: [{ ...statement(0), statement_id: "st_warm" }] });
  const warm = "/partners/bench/statement-renders?status=pending&limit=1";
  while ((await operator("GET", warm)).data.length > 0) await sleep(100);

  const started = performance.now();
  await operator("POST", "/import", {
    statements: Array.from({ length: count }, (_, i) => statement(i)),
  });
  const imported = performance.now();
  // Renders complete about in the order they were queued: the first one still pending tells how
  // far they got, in one cheap query a second.
  interface Pending {
    statement_id: string;
    attempts: number;
    next_attempt_at: string | null;
    error: string | null;
  }
  let first: Pending | undefined;
  const firstPending = async () => {
    const path = "/partners/bench/statement-renders?status=pending&limit=1";
    [first] = (await operator("GET", path)).data as Pending[];
    return first?.statement_id;
  };
  let seen = await firstPending();
  let moved = performance.now();
  let printed = 0;
  while (seen !== undefined) {
    await sleep(1000);
    const now = await firstPending();
    if (now !== seen) moved = performance.now();
    seen = now;
    const seconds = (performance.now() - started) / 1000;
    if (seconds - printed >= 10) {
      printed = seconds;
      console.log(`  ${seconds.toFixed(0)} s: the first still pending is ${seen ?? "none"}`);
    }
    // A render waiting out its retry's backoff is not stalled: only one whose time has come.
    const due = Date.parse(first?.next_attempt_at ?? "") <= Date.now();
    if (performance.now() - moved > 60_000 && due) {
      const log = service.output().split("\n");
      const errors = log.filter((line) => /error|failed|exceeded/i.test(line)).slice(-20);
      const idle = ((performance.now() - queue.lastBatchAt) / 1000).toFixed(0);
      throw new Error(
        [
          `no render for 60 s: ${JSON.stringify(first)} is due and still pending;`,
          `the queue dispatched ${queue.batches} batches, the last ${idle} s ago;`,
          queue.reloads > 0
            ? `wrangler reloaded the Worker ${queue.reloads} times, which empties Miniflare's ` +
              "queues (their messages live in memory): nothing sends those renders again " +
              "until the five-minute sweep;"
            : "wrangler did not reload the Worker;",
          `render failures logged: ${queue.renderLines.length}; the service said:`,
          ...errors,
        ].join("\n"),
      );
    }
  }
  const done = performance.now();
  const failed = await operator("GET", "/partners/bench/statement-renders?status=failed&limit=100");
  const seconds = (done - started) / 1000;
  console.log(`Imported ${count} statements in ${((imported - started) / 1000).toFixed(1)} s;`);
  console.log(
    `every document rendered and stored ${seconds.toFixed(1)} s after the import began ` +
      `(${(count / seconds).toFixed(1)} statements/s, ${((seconds * 1000) / count).toFixed(1)} ms ` +
      `each); ${failed.data.length} failed.`,
  );
  console.log(
    `The queue dispatched ${queue.batches} batches, the longest ${queue.longestBatchMs} ms; ` +
      `${queue.renderLines.length} render attempts failed and were retried; ` +
      `wrangler reloaded the Worker ${queue.reloads} times.`,
  );
} finally {
  await service.stop();
  copy.remove();
}
