// `npm run gameday [-- --short]`: a game day against a throwaway local run. While two partners
// (one on each of two shards) have statements imported, read them and their events, receive
// webhooks on a loopback receiver and have their documents rendered, it injects faults through the
// seams a local run opens under its `GAMEDAY_FAULTS` flag (src/gameday/), one after another: a
// queue consumer that dies mid-batch, messages delivered twice, a batch acknowledged and lost,
// D1 answering errors on one shard, a renderer that times out, and a partner moved between
// shards, each armed with work in flight. Then it checks that every fault hit something, every
// `statement.created` reached every endpoint and is listed in `/v2/events`, every statement was
// rendered or dead-lettered with its cause, every request is in the request log exactly once, no
// 5xx came but the injected 503s, and the Worker's heap ended where it started. It prints a table
// (fault, what it hit, what recovered it, time to recover) and exits 1 when an invariant broke.
// `--short` (about three minutes once the run answers) is what CI runs (test/e2e/gameday.test.ts).

import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { type WorkerHeapSampler, workerHeapSampler } from "../bench/inspector.ts";
import {
  freePort,
  type LocalService,
  startLocalService,
} from "../test/support/node/local-service.ts";
import { startReceiver } from "../test/support/node/webhook-receiver.ts";
import { runScheduled } from "./local-cron.ts";

/** The two partners and the shards they start on. */
const PARTNERS = [
  { id: "gd_alpha", shard: "00" },
  { id: "gd_beta", shard: "01" },
] as const;
type PartnerId = (typeof PARTNERS)[number]["id"];
const ENDPOINTS_PER_PARTNER = 2;
/**
 * The sweep re-sends work overdue by five minutes (src/app/maintenance.ts), at the time it runs:
 * fired every 30 s (where the cron fires every five minutes), it finds lost work within this. The
 * short form shortens the sweep's grace to 15 s (`SWEEP_GRACE_SECONDS`) and fires it every 10 s.
 */
const LOST_SETTLE_MS = 8 * 60_000;
const SHORT_SWEEP_GRACE_SECONDS = 15;
const SHORT_LOST_SETTLE_MS = 90_000;
/**
 * A fault is kept armed past its phase until it has hit something, for at most this long: work is
 * imported meanwhile, so a fault that finds nothing to hit is a broken game day, not a quiet one.
 */
const HIT_WAIT_MS = 60_000;
/** The API Worker's name in wrangler.toml: its isolate is `core:user:<name>`. */
const API_WORKER = "card-account-statements-api";
/** The Worker's heap may end this much above where it stood once the traffic began. */
const HEAP_GROWTH_LIMIT = 16 * 1024 * 1024;

export interface GameDayOptions {
  short?: boolean;
  log?: (line: string) => void;
}

export interface GameDayRow {
  fault: string;
  hit: string;
  recovered_by: string;
  time_to_recover: string;
}

export interface GameDayResult {
  rows: GameDayRow[];
  /** Each broken invariant, in words; empty when all held. */
  broken: string[];
  /** Each invariant and what was measured of it. */
  checks: { invariant: string; ok: boolean; detail: string }[];
  table: string;
}

interface Sent {
  partner: PartnerId;
  path: string;
  status: number;
  requestId: string | null;
  at: number;
}

/** When a fault may answer 503 to a partner: its shard's outage, or its move. */
interface Window {
  partner: PartnerId | "any";
  shard?: string;
  from: number;
  to: number;
}

/**
 * The `n`-th statement of the game day, its cycle ending on the `n`-th day of 2020: a closed cycle
 * for thousands of imports (a cycle a month ran into the future, which the import refuses, after
 * 83 of them, and every fault after that found nothing to hit).
 */
function statementOf(partner: PartnerId, n: number) {
  const end = new Date(Date.UTC(2020, 0, n, 23, 59, 59));
  return {
    statement_id: `${partner}_st_${String(n).padStart(4, "0")}`,
    account_id: `${partner}_acc`,
    period_end_date: end.toISOString(),
    currency: "USD",
    statement_balance: 1000 + n,
    purchases: 1000 + n,
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Runs the game day; never throws for a broken invariant (it is in `broken`). */
export async function runGameDay(options: GameDayOptions = {}): Promise<GameDayResult> {
  const short = options.short ?? false;
  const log = options.log ?? ((line: string) => console.log(line));
  const phaseMs = short ? 6_000 : 30_000;
  const outageSeconds = short ? 8 : 60;
  const settleMs = short ? 45_000 : 120_000;

  const receiver = await startReceiver();
  const inspectorPort = await freePort();
  log(`game day (${short ? "short" : "full"}): starting a local run…`);
  const service = await startLocalService({
    inspectorPort,
    vars: {
      GAMEDAY_FAULTS: "on",
      WEBHOOK_ALLOW_LOOPBACK: "true",
      WEBHOOK_RETRY_BASE_SECONDS: "1",
      WEBHOOK_RETRY_WINDOW_SECONDS: "900",
      RENDER_RETRY_BASE_SECONDS: "1",
      RENDER_RETRY_WINDOW_SECONDS: "900",
      MOVE_DEFER_SECONDS: "2",
      ...(short ? { SWEEP_GRACE_SECONDS: String(SHORT_SWEEP_GRACE_SECONDS) } : {}),
    },
  });
  // The heap sampler `play` opens, closed here whatever happens.
  const opened: { sampler: WorkerHeapSampler | null } = { sampler: null };
  try {
    return await play(service);
  } finally {
    opened.sampler?.close();
    await service.stop();
    receiver.server.close();
  }

  async function play(service: LocalService): Promise<GameDayResult> {
    const { base } = service;
    const auth = { authorization: `Bearer ${service.operatorToken}` };
    const op = (path: string, init: RequestInit = {}) =>
      fetch(`${base}/operator/v1${path}`, {
        ...init,
        headers: { ...auth, "content-type": "application/json", ...init.headers },
      });
    const control = (path: string, method = "GET", body?: unknown) =>
      fetch(`${base}/__gameday/${path}`, {
        method,
        headers: { ...auth, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const must = async (res: Response, what: string) => {
      const text = await res.text();
      if (!res.ok) throw new Error(`${what}: ${res.status} ${text}`);
      return text ? (JSON.parse(text) as Record<string, unknown>) : {};
    };
    const probe = await control("faults");
    if (probe.status !== 200) throw new Error(`the fault seams did not answer: ${probe.status}`);

    // ---- seed: two partners on two shards, a key each, endpoints on the receiver ----
    const keys = {} as Record<PartnerId, string>;
    const endpoints = {} as Record<PartnerId, string[]>;
    for (const { id, shard } of PARTNERS) {
      await must(
        await op("/import", {
          method: "POST",
          body: JSON.stringify({
            partners: [
              {
                partner_id: id,
                name: `Game Day ${id}`,
                shard,
                products: [{ merchant_key: `mk_${id}`, name: "Game Card", documents: "rendered" }],
              },
            ],
            customers: [
              {
                customer_id: `${id}_cus`,
                partner_id: id,
                environment: "sandbox",
                merchant_key: `mk_${id}`,
              },
            ],
            accounts: [{ account_id: `${id}_acc`, customer_id: `${id}_cus`, currency: "USD" }],
          }),
        }),
        `seed ${id}`,
      );
      const key = await must(
        await op(`/partners/${id}/keys`, {
          method: "POST",
          body: JSON.stringify({ environment: "sandbox", scopes: ["ACCOUNT_READ"] }),
        }),
        `key of ${id}`,
      );
      keys[id] = key.api_key as string;
      endpoints[id] = [];
      for (let e = 0; e < ENDPOINTS_PER_PARTNER; e++) {
        const path = `/ok/${id}/${e}`;
        await must(
          await fetch(`${base}/v2/webhook_endpoints`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${keys[id]}`,
              "content-type": "application/json",
              "x-service-version": "latest",
            },
            body: JSON.stringify({ url: `${receiver.url}${path}` }),
          }),
          `endpoint of ${id}`,
        );
        endpoints[id].push(path);
      }
    }

    // ---- traffic: imports, reads; every partner request remembered ----
    const sent: Sent[] = [];
    const imported = new Map<PartnerId, Set<string>>(PARTNERS.map((p) => [p.id, new Set()]));
    const windows: Window[] = [];
    const shardOf = new Map<PartnerId, string>(PARTNERS.map((p) => [p.id, p.shard]));
    let stopped = false;
    let next = 1;
    const partnerCall = async (partner: PartnerId, path: string) => {
      const at = Date.now();
      try {
        const res = await fetch(`${base}${path}`, {
          headers: { authorization: `Bearer ${keys[partner]}`, "x-service-version": "latest" },
        });
        await res.arrayBuffer();
        sent.push({
          partner,
          path,
          status: res.status,
          requestId: res.headers.get("x-request-id"),
          at,
        });
      } catch (error) {
        sent.push({ partner, path: `${path} (${String(error)})`, status: 0, requestId: null, at });
      }
    };
    /** Imports `count` new statements of each partner at once: work in flight for a fault. */
    const burst = async (count: number) => {
      for (const { id } of PARTNERS) {
        const batch = Array.from({ length: count }, () => statementOf(id, next++));
        const res = await op("/import", {
          method: "POST",
          body: JSON.stringify({ statements: batch }),
        }).catch(() => null);
        await res?.text().catch(() => "");
        if (res?.ok) for (const s of batch) imported.get(id)?.add(s.statement_id);
        else log(`  a burst of imports of ${id} was refused: ${res?.status ?? "no answer"}`);
      }
    };
    const importer = (async () => {
      const pending: { partner: PartnerId; n: number }[] = [];
      while (!stopped) {
        const partner = PARTNERS[next % PARTNERS.length]?.id as PartnerId;
        if (pending.length < 5) pending.push({ partner, n: next++ });
        // One import a second, the oldest refused one first: a refusal (a 503 in the outage or the
        // move) waits for the next second rather than piling retries onto the operator's limit.
        const item = pending.shift();
        if (item) {
          const res = await op("/import", {
            method: "POST",
            body: JSON.stringify({ statements: [statementOf(item.partner, item.n)] }),
          }).catch(() => null);
          const text = res ? await res.text().catch(() => "") : "";
          const id = statementOf(item.partner, item.n).statement_id;
          if (res?.ok) imported.get(item.partner)?.add(id);
          else {
            if (res && res.status >= 500 && res.status !== 503) {
              const at = Date.now();
              sent.push({
                partner: item.partner,
                path: "/operator/v1/import",
                status: res.status,
                requestId: null,
                at,
              });
            }
            // A refusal that waiting cannot change (a 4xx but 429) is reported and dropped, so
            // that the imports behind it go on.
            if (res && res.status < 500 && res.status !== 429) {
              log(`  import of ${id} refused: ${res.status} ${text}`);
            } else pending.unshift(item);
          }
        }
        await sleep(1_000);
      }
    })();
    const reader = (async () => {
      while (!stopped) {
        for (const { id } of PARTNERS) {
          await partnerCall(id, `/v2/customers/${id}_cus/accounts/${id}_acc/statements?limit=5`);
          await partnerCall(id, "/v2/events?limit=5");
        }
        await sleep(500);
      }
    })();

    // ---- memory: the Worker's own heap, after a collection ----
    // Read from the API Worker's own isolate on the runtime's inspector, as the soak reads it:
    // wrangler's proxy (`/ws`) follows whichever of the two Workers finished bundling last, and
    // can hold the renderer's. Readings that cannot be compared fail the check below.
    if (!service.pid) throw new Error("the local run has no process id");
    const sampler = await workerHeapSampler(service.pid, API_WORKER);
    opened.sampler = sampler;
    const heap = () => sampler.sample({ collectGarbage: true });
    await sleep(phaseMs);
    const heapStart = await heap();

    // ---- settling: every statement imported so far delivered everywhere and rendered ----
    const received = () => {
      const got = new Map<string, Set<string>>();
      for (const r of receiver.received) {
        try {
          const body = JSON.parse(r.body) as {
            type?: string;
            data?: { statement?: { statement_id?: string } };
          };
          if (body.type !== "statement.created") continue;
          const set = got.get(r.path) ?? new Set<string>();
          set.add(body.data?.statement?.statement_id ?? "");
          got.set(r.path, set);
        } catch {
          // Not an event.
        }
      }
      return got;
    };
    /** The partner's renders in `status`, by statement, with the error of their last attempt. */
    const renderErrors = async (partner: PartnerId, status: string) => {
      const rows = new Map<string, string | null>();
      let after = "";
      for (;;) {
        const query = `status=${status}&limit=100${after ? `&starting_after=${after}` : ""}`;
        const res = await op(`/partners/${partner}/statement-renders?${query}`);
        if (!res.ok) {
          log(`  the renders of ${partner} could not be listed: ${res.status}`);
          return null;
        }
        const page = (await res.json()) as {
          data: { statement_id: string; error: string | null }[];
          has_more: boolean;
        };
        for (const row of page.data) rows.set(row.statement_id, row.error);
        if (!page.has_more) return rows;
        after = page.data.at(-1)?.statement_id ?? "";
      }
    };
    const renders = async (partner: PartnerId, status: string) => {
      const rows = await renderErrors(partner, status);
      return rows && new Set(rows.keys());
    };
    /** The bodies of every dead letter of `queue`, every page. */
    const deadLetterBodies = async (queue: string): Promise<unknown[]> => {
      const bodies: unknown[] = [];
      let after = "";
      for (let pages = 0; pages < 100; pages++) {
        const query = `queue=${queue}&limit=100${after ? `&starting_after=${after}` : ""}`;
        const res = await op(`/dead-letters?${query}`);
        if (!res.ok) throw new Error(`the dead letters could not be listed: ${res.status}`);
        const page = (await res.json()) as {
          data: { dead_letter_id: string; body: unknown }[];
          has_more: boolean;
        };
        bodies.push(...page.data.map((d) => d.body));
        if (!page.has_more) break;
        after = page.data.at(-1)?.dead_letter_id ?? "";
      }
      return bodies;
    };
    /** What is still in flight of the statements imported by `snapshot`; null when nothing is. */
    const unsettled = async (snapshot: Map<PartnerId, string[]>): Promise<string | null> => {
      const got = received();
      for (const { id } of PARTNERS) {
        const done = snapshot.get(id) ?? [];
        for (const path of endpoints[id] ?? []) {
          const missing = done.filter((s) => !got.get(path)?.has(s));
          if (missing.length > 0) return `${missing.length} statement.created not yet at ${path}`;
        }
        const pending = await renders(id, "pending");
        if (pending === null) return `the renders of ${id} could not be listed`;
        const waiting = done.filter((s) => pending.has(s)).length;
        if (waiting > 0) return `${waiting} renders of ${id} pending`;
      }
      return null;
    };
    /**
     * Waits for everything imported so far to land; with `sweep`, for up to its `withinMs`, firing
     * the sweep every `everyMs` as the cron would.
     */
    const settle = async (
      from: number,
      sweep?: { withinMs: number; everyMs: number },
    ): Promise<number | null> => {
      const deadline = Date.now() + (sweep?.withinMs ?? settleMs);
      const snapshot = new Map(PARTNERS.map((p) => [p.id, [...(imported.get(p.id) ?? [])]]));
      let swept = Date.now();
      for (;;) {
        const left = await unsettled(snapshot);
        if (left === null) return Date.now() - from;
        if (Date.now() > deadline) {
          log(`  still in flight after ${seconds(sweep?.withinMs ?? settleMs)}: ${left}`);
          return null;
        }
        if (sweep && Date.now() - swept > sweep.everyMs) {
          await runScheduled(base).catch((e) => log(String(e)));
          swept = Date.now();
        }
        // The operator API allows 600 requests a minute from one address: poll gently.
        await sleep(2_000);
      }
    };
    const rows: GameDayRow[] = [];
    /** The faults that were armed and hit nothing, by what they were armed at. */
    const idle: string[] = [];
    type Hit = { name: string; queue?: string; shard?: string; hits: number; examples?: string[] };
    /**
     * Arms `faults` with work in flight (unless `quiet`: a burst of imports as they are armed,
     * another every few seconds while one has hit nothing), keeps them `ms` and then until each
     * has hit something (at most HIT_WAIT_MS more), disarms them; answers their hits and when
     * they ended.
     */
    const inject = async (faults: Record<string, unknown>[], ms: number, quiet = false) => {
      for (const fault of faults) await must(await control("faults", "POST", fault), "arm");
      const armedAt = Date.now();
      if (!quiet) await burst(2);
      let burstAt = Date.now();
      for (;;) {
        await sleep(1_000);
        const elapsed = Date.now() - armedAt;
        if (elapsed < ms) continue;
        const state = (await (await control("faults")).json()) as { armed: Hit[]; finished: Hit[] };
        const all = [...state.armed, ...state.finished];
        if (all.every((f) => f.hits > 0) || elapsed > ms + HIT_WAIT_MS) break;
        if (!quiet && Date.now() - burstAt > 5_000) {
          await burst(1);
          burstAt = Date.now();
        }
      }
      const report = (await (await control("faults", "DELETE")).json()) as { finished: Hit[] };
      for (const h of report.finished) {
        if (h.hits === 0) idle.push(`${h.name} of ${h.queue ?? h.shard ?? "the renderer"}`);
      }
      return { ended: Date.now(), hits: report.finished };
    };
    /** What the faults hit: how many of what, where, and the first of them by name. */
    const describeHits = (hits: Hit[], unit: string) =>
      hits
        .map((h) => {
          const where = h.queue ?? (h.shard ? `shard ${h.shard}` : "the renderer");
          const [first] = h.examples ?? [];
          const named = first ? ` (${first}${h.hits > 1 ? ", …" : ""})` : "";
          return `${h.hits} ${unit} of ${where}${named}`;
        })
        .join("; ");
    const row = (fault: string, hit: string, recoveredBy: string, took: number | null) => {
      rows.push({
        fault,
        hit,
        recovered_by: recoveredBy,
        time_to_recover: took === null ? "NOT RECOVERED" : seconds(took),
      });
      log(
        `  ${fault}: ${hit}; ${took === null ? "not recovered" : `recovered in ${seconds(took)}`}`,
      );
    };

    log("settling the seed traffic…");
    await settle(Date.now());

    // 1. A consumer that dies mid-batch.
    log("fault: a queue consumer throws mid-batch");
    {
      const { ended, hits } = await inject(
        [
          { name: "consumer-throws", queue: "webhook-deliveries", batches: 3 },
          { name: "consumer-throws", queue: "statement-renders", batches: 2 },
        ],
        phaseMs,
      );
      row(
        "consumer throws mid-batch",
        `${describeHits(hits, "unacknowledged messages")}`,
        "the queue's retry of the unacknowledged messages",
        await settle(ended),
      );
    }

    // 2. Messages delivered twice.
    log("fault: messages delivered twice");
    {
      const before = receiver.received.length;
      const { ended, hits } = await inject(
        [
          { name: "duplicate-delivery", queue: "webhook-deliveries", batches: 3 },
          { name: "duplicate-delivery", queue: "statement-renders", batches: 2 },
          { name: "duplicate-delivery", queue: "request-logs", batches: 3 },
        ],
        phaseMs,
      );
      const took = await settle(ended);
      const window = receiver.received.slice(before);
      const ids = window.map((r) => `${r.path} ${r.headers["webhook-id"]}`);
      const repeats = ids.length - new Set(ids).size;
      row(
        "message delivered twice",
        `${describeHits(hits, "duplicates")}; ${repeats} repeated POSTs reached receivers`,
        "claims per delivery, renders by generation, log rows by id",
        took,
      );
    }

    // 4. D1 answering errors on one shard.
    log(`fault: D1 errors for ${outageSeconds} s on shard 01`);
    {
      const from = Date.now();
      const { ended, hits } = await inject(
        [{ name: "d1-outage", shard: "01", seconds: outageSeconds }],
        outageSeconds * 1000,
        // Reads hit it at once; imports into the failing shard would only be refused.
        true,
      );
      windows.push({ partner: "any", shard: "01", from, to: ended + 2_000 });
      const refused = sent.filter(
        (s) => s.status === 503 && s.at >= from && s.at <= ended + 2_000,
      ).length;
      row(
        `D1 errors ${outageSeconds} s, shard 01`,
        `${describeHits(hits, "calls failed")}; ${refused} reads answered 503`,
        "503 + Retry-After; queue retries with backoff",
        await settle(ended),
      );
    }

    // 5. A renderer that times out.
    log("fault: the renderer times out");
    {
      const { ended, hits } = await inject(
        [{ name: "renderer-timeout", seconds: (phaseMs + HIT_WAIT_MS) / 1000 + 10 }],
        phaseMs,
      );
      row(
        "renderer times out",
        describeHits(hits, "render calls timed out"),
        "render retry with backoff",
        await settle(ended),
      );
    }

    // 6. A partner moved while all this goes on.
    log("fault: gd_alpha moved from shard 00 to 01");
    {
      const from = Date.now();
      let phase = "";
      let calls = 0;
      while (phase !== "switched" && phase !== "done" && calls++ < 100) {
        const res = await op("/partners/gd_alpha/move", {
          method: "POST",
          body: JSON.stringify({ shard: "01", max_rows: 200 }),
        });
        phase = ((await res.json()) as { phase?: string }).phase ?? `answered ${res.status}`;
        if (!res.ok) break;
      }
      const ended = Date.now();
      windows.push({ partner: "gd_alpha", from, to: ended + 2_000 });
      shardOf.set("gd_alpha", "01");
      const refused = sent.filter(
        (s) => s.partner === "gd_alpha" && s.status === 503 && s.at >= from,
      ).length;
      const took = phase === "switched" || phase === "done" ? await settle(ended) : null;
      row(
        "partner moved 00 → 01",
        `${calls} move calls (${phase}); ${refused} requests answered 503`,
        "deferred queue work re-sent after the switch",
        took,
      );
    }

    // 7. A batch acknowledged and lost, last: only the sweep finds its work again, once it is overdue
    // by the sweep's grace (five minutes; 15 s in the short form), so its recovery takes that long.
    {
      log("fault: deliveries acknowledged but lost");
      const { ended, hits } = await inject(
        [
          { name: "lost-ack", queue: "webhook-deliveries", batches: 2 },
          { name: "lost-ack", queue: "statement-renders", batches: 1 },
        ],
        phaseMs,
      );
      row(
        "delivery acknowledged but lost",
        describeHits(hits, "messages lost"),
        short ? `the sweep (grace ${SHORT_SWEEP_GRACE_SECONDS} s)` : "the five-minute sweep",
        await settle(
          ended,
          short
            ? { withinMs: SHORT_LOST_SETTLE_MS, everyMs: 10_000 }
            : { withinMs: LOST_SETTLE_MS, everyMs: 30_000 },
        ),
      );
    }

    // ---- the end: stop the traffic, let everything land, check ----
    stopped = true;
    await Promise.all([importer, reader]);
    const drained = Date.now();
    await settle(drained);
    const heapEnd = await heap();
    const checks: GameDayResult["checks"] = [];
    const check = (invariant: string, ok: boolean, detail: string) =>
      checks.push({ invariant, ok, detail });

    // A fault that found nothing to hit showed nothing: the game day did not test it.
    check(
      "every fault hit work in flight",
      idle.length === 0,
      idle.length === 0 ? `${rows.length} faults, each hit` : `hit nothing: ${idle.join(", ")}`,
    );

    // Every statement.created at every endpoint, and in /v2/events.
    const got = received();
    let missingDeliveries = 0;
    let missingEvents = 0;
    let statements = 0;
    for (const { id } of PARTNERS) {
      const done = imported.get(id) ?? new Set();
      statements += done.size;
      for (const path of endpoints[id] ?? []) {
        missingDeliveries += [...done].filter((s) => !got.get(path)?.has(s)).length;
      }
      const listed = new Set<string>();
      let token = "";
      for (let pages = 0; pages < 100; pages++) {
        const res = await fetch(
          `${base}/v2/events?type=statement.created&limit=100${token ? `&starting_after=${encodeURIComponent(token)}` : ""}`,
          { headers: { authorization: `Bearer ${keys[id]}`, "x-service-version": "latest" } },
        );
        const page = (await res.json()) as {
          data?: { data?: { statement?: { statement_id?: string } } }[];
          has_more?: boolean;
          next_page_token?: string;
        };
        for (const e of page.data ?? []) listed.add(e.data?.statement?.statement_id ?? "");
        if (!page.has_more || !page.next_page_token) break;
        token = page.next_page_token;
      }
      missingEvents += [...done].filter((s) => !listed.has(s)).length;
    }
    check(
      "every statement.created delivered to every endpoint",
      missingDeliveries === 0,
      `${statements} statements × ${ENDPOINTS_PER_PARTNER} endpoints each, ${missingDeliveries} missing`,
    );
    check(
      "no event missing from /v2/events",
      missingEvents === 0,
      `${missingEvents} of ${statements} missing`,
    );

    // Every statement rendered, or dead-lettered with its cause: its render's dead letter names
    // the statement, and its render record says why its last attempt failed.
    const deadRenders = new Set(
      (await deadLetterBodies("statement-renders")).map((body) =>
        typeof body === "object" && body !== null ? Reflect.get(body, "statement_id") : null,
      ),
    );
    let unrendered = 0;
    let deadWithCause = 0;
    let deadWithoutCause = 0;
    for (const { id } of PARTNERS) {
      const rendered = (await renders(id, "rendered")) ?? new Set();
      const errors = new Map([
        ...((await renderErrors(id, "pending")) ?? []),
        ...((await renderErrors(id, "failed")) ?? []),
      ]);
      for (const s of imported.get(id) ?? []) {
        if (rendered.has(s)) continue;
        if (!deadRenders.has(s)) unrendered++;
        else if (errors.get(s)) deadWithCause++;
        else deadWithoutCause++;
      }
    }
    check(
      "every statement rendered or dead-lettered with its cause",
      unrendered === 0 && deadWithoutCause === 0,
      `${statements} statements, ${deadWithCause} dead-lettered with a cause, ` +
        `${deadWithoutCause} without, ${unrendered} neither`,
    );

    // Every partner request in the request log exactly once (a request refused before its key
    // could be read, in the outage, is never attributed, so a 503 may be absent).
    const logged = sent.filter((s) => s.requestId);
    // Each shard holds a request once; a partner moved keeps its old shard's copy until that copy
    // is retired, so a request may be on two shards, once on each.
    const shardCounts = (counts: Record<string, Record<string, number>>, s: Sent) =>
      Object.values(counts).map((shard) => shard[s.requestId ?? ""] ?? 0);
    const countOf = (counts: Record<string, Record<string, number>>, s: Sent) =>
      Math.max(0, ...shardCounts(counts, s));
    let counts: Record<string, Record<string, number>> = {};
    for (let attempt = 0; attempt < 40; attempt++) {
      const res = await control("request-log-counts", "POST", {
        request_ids: logged.map((s) => s.requestId),
      });
      counts = (await res.json()) as Record<string, Record<string, number>>;
      if (logged.every((s) => s.status === 503 || countOf(counts, s) >= 1)) break;
      await sleep(1_000);
    }
    const missing = logged.filter((s) => s.status !== 503 && countOf(counts, s) === 0);
    const twice = logged.filter((s) => countOf(counts, s) > 1).length;
    // An absent request's record may be waiting in the dead letters (its retries ran out).
    const deadLogs = new Set(
      (await deadLetterBodies("request-logs")).flatMap((body) =>
        Array.isArray(body) ? body.map((r) => Reflect.get(Object(r), "request_id")) : [],
      ),
    );
    const deadOnes = missing.filter((s) => deadLogs.has(s.requestId)).length;
    check(
      "every request in the request log exactly once",
      missing.length === 0 && twice === 0,
      `${logged.length} requests, ${missing.length} absent (${deadOnes} of them in dead letters), ` +
        `${twice} more than once`,
    );

    // No 5xx but the injected 503s.
    const unexpected = sent.filter((s) => {
      if (s.status < 500 && s.status !== 0) return false;
      if (s.status !== 503) return true;
      return !windows.some(
        (w) =>
          (w.partner === "any" || w.partner === s.partner) &&
          (w.shard === undefined || PARTNERS.find((p) => p.id === s.partner)?.shard === w.shard) &&
          s.at >= w.from &&
          s.at <= w.to,
      );
    });
    const fives = sent.filter((s) => s.status >= 500).length;
    check(
      "no 5xx but the injected 503s",
      unexpected.length === 0,
      `${sent.length} requests, ${fives} 5xx, ${unexpected.length} outside a fault${unexpected[0] ? ` (first: ${unexpected[0].status} ${unexpected[0].path})` : ""}`,
    );

    // Two readings compare only when both came from the same isolate: a reload starts a new heap.
    const [start, end] = [heapStart.usedBytes, heapEnd.usedBytes];
    const comparable =
      start !== undefined && end !== undefined && heapStart.isolateId === heapEnd.isolateId;
    check(
      "the Worker's heap flat",
      comparable && end - start <= HEAP_GROWTH_LIMIT,
      comparable
        ? `${(start / 2 ** 20).toFixed(1)} MB → ${(end / 2 ** 20).toFixed(1)} MB after GC`
        : `no two readings of one isolate to compare: ${heapEnd.stale ?? heapStart.stale ?? "the isolate changed"}`,
    );

    if (checks.some((c) => !c.ok) || rows.some((r) => r.time_to_recover === "NOT RECOVERED")) {
      log(`the local run's last lines:\n${service.output().slice(-6000)}`);
    }
    const table = render(rows, checks);
    return {
      rows,
      checks,
      broken: checks.filter((c) => !c.ok).map((c) => `${c.invariant}: ${c.detail}`),
      table,
    };
  }
}

function render(rows: GameDayRow[], checks: GameDayResult["checks"]): string {
  const head = ["fault", "what it hit", "what recovered it", "time to recover"];
  const cells = rows.map((r) => [r.fault, r.hit, r.recovered_by, r.time_to_recover]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? "").length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  const out = [
    line(head),
    `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`,
    ...cells.map(line),
    "",
  ];
  for (const c of checks) out.push(`${c.ok ? "✔" : "✖"} ${c.invariant}: ${c.detail}`);
  return out.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await runGameDay({ short: process.argv.includes("--short") });
  console.log(`\n${result.table}`);
  process.exitCode = result.broken.length > 0 ? 1 : 0;
}
