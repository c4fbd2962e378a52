// The import arms: the operator import of the production bundle against its floor (the same rows
// in multi-row INSERTs of up to D1's 100 bound parameters, one D1 batch per request), month by month until each
// table holds `total` statements; then the largest body the import accepts, with the Worker's
// heap sampled. Both run on their own workerd over empty databases, rebuilt every run. Each part
// (the growth, the index sizes, each run of the largest body, the headroom check) fills its own
// figures and is reported as it finishes; one that fails is named, and the next still runs (a run
// of the largest body that kills the runtime leaves the next one a fresh runtime).
import { rm } from "node:fs/promises";
import path from "node:path";
import { applyMigrations, migrateService } from "./data.ts";
import { IMPORT_ACCOUNTS, largestBody, monthlyBody, seedImportTenants } from "./import-data.ts";
import { type HeapPeak, heapPeakDuring, workerIsolate } from "./inspector.ts";
import { type BenchServer, freePort, OPERATOR_TOKEN, startServer } from "./serve.ts";

const INSPECTOR_PORT = await freePort();
const SERVICE = "importer";
const FLOOR = "import-floor";
/** Statements per segment of the growth curve. */
const SEGMENT = 100_000;
/** The import body limit (src/imports/operator-routes.ts MAX_IMPORT_BYTES). */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
/** A Worker isolate's memory limit in production; the import arms cap V8's heap at it. */
const PRODUCTION_HEAP_MB = 128;
/** The headroom check: the largest body must also pass with half of that. */
const HEADROOM_HEAP_MB = 64;

export interface LineItemImportResults {
  statementsPerRequest: number;
  lineItemsPerStatement: number;
  /** Line items in each table at the end. */
  total: number;
  /** Samples count statements; line items are `lineItemsPerStatement` times as many. */
  service: ImportSample[];
  floor: ImportSample[];
  /** Rates in line items per second, per LINE_ITEM_SEGMENT line items. */
  segments: ImportSegment[];
  heap: HeapPeak;
  /** The service's database growth per line item (its statement's row and event shared out). */
  bytesPerLineItemWithStatement: number;
  /** A line item's row and each of its indexes, per line item, from copies built apart. */
  lineItemBytes: { row: number; primaryKey: number; page: number; type: number };
}

export interface ImportSample {
  statements: number;
  /** Wall time of the request, as the client waited for it (ms). */
  ms: number;
  /** The longest single D1 call the request made (ms). */
  longestD1Ms: number;
  /** Rows written, indexes included, as D1 reports them. */
  rowsWritten: number;
}

export interface ImportSegment {
  /** Statements in each table at the end of the segment. */
  upTo: number;
  serviceRate: number;
  floorRate: number;
}

export interface LargestImport {
  bytes: number;
  status: number;
  ms: number;
  longestD1Ms: number;
  d1Queries: number;
  rowsWritten: number;
  heap: HeapPeak;
}

export interface ImportResults {
  statementsPerRequest: number;
  total: number;
  service: ImportSample[];
  floor: ImportSample[];
  segments: ImportSegment[];
  /** The largest V8 heap seen during any monthly import request. */
  monthlyHeap: HeapPeak;
  largest: LargestImport[];
  /**
   * Database bytes per stored statement (its row, both statement indexes, and its event with the
   * event's indexes), from D1's size.
   */
  bytesPerStatement: { service: number; floor: number };
  /** Of those bytes, the shares per statement, from building a copy of each part. */
  indexBytesPerStatement: { page: number; id: number; event: number };
  /** The largest body again, in a workerd whose V8 heap is capped at `capMb`. */
  headroom: { capMb: number; status: number | string; ms: number };
  /** The line items import arm (absent in runs before it, or when its step failed). */
  lineItems?: LineItemImportResults;
}

/** The import arms' figures before any is measured: a part that fails leaves them so. */
export function emptyImports(): ImportResults {
  const none = { usedBytes: 0, totalBytes: 0, samples: 0 };
  return {
    statementsPerRequest: IMPORT_ACCOUNTS,
    total: 0,
    service: [],
    floor: [],
    segments: [],
    monthlyHeap: none,
    largest: [],
    bytesPerStatement: { service: Number.NaN, floor: Number.NaN },
    indexBytesPerStatement: { page: Number.NaN, id: Number.NaN, event: Number.NaN },
    headroom: { capMb: HEADROOM_HEAP_MB, status: "not measured", ms: Number.NaN },
  };
}

/** Told as each part finishes: its name, and why it failed (undefined when it did not). */
export type OnImportPart = (part: string, failure?: string) => Promise<void>;

interface ImportLog {
  status: number;
  d1_queries: number;
  d1_rows_written?: number;
  d1_longest_ms?: number;
}

async function post(
  server: BenchServer,
  worker: string,
  route: string,
  body: string,
  requestId: string,
): Promise<Response> {
  return fetch(new URL(route, server.url(worker)), {
    method: "POST",
    headers: {
      authorization: `Bearer ${OPERATOR_TOKEN}`,
      "content-type": "application/json",
      "x-request-id": requestId,
    },
    body,
    // An isolate out of memory may never answer: fail the run rather than wait for ever.
    signal: AbortSignal.timeout(120_000),
  });
}

/** An operator import on the bench Worker `worker`. */
export function postImport(
  server: BenchServer,
  worker: string,
  body: string,
  requestId: string,
): Promise<Response> {
  return post(server, worker, "/operator/v1/import", body, requestId);
}

/** One round of the arms: the import on the service, then on its floor, or the other way. */
export interface ImportRound {
  server: BenchServer;
  inspectorPort: number;
  body: string;
  /** Distinguishes the round's request ids. */
  id: string;
  /** Statements the body carries. */
  statements: number;
  /** Where the service's Worker heap peak is folded in. */
  heap: HeapPeak;
  /** Each side goes first every other round, so neither always meets a warmer machine. */
  serviceFirst: boolean;
}

/** Runs one round, timing each side: the service's sample and the floor's. */
export async function importRound(round: ImportRound): Promise<[ImportSample, ImportSample]> {
  const { server, body, id, statements, heap } = round;
  const runService = async (): Promise<ImportSample> => {
    const requestId = `bench-import-${id}`;
    const started = performance.now();
    const { result: res, peak } = await heapPeakDuring(
      round.inspectorPort,
      workerIsolate(SERVICE),
      () => postImport(server, SERVICE, body, requestId),
    );
    const text = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`import ${id}: ${res.status} ${text.slice(0, 500)}`);
    const log = (await server.logOf(requestId)) as unknown as ImportLog;
    heap.usedBytes = Math.max(heap.usedBytes, peak.usedBytes);
    heap.totalBytes = Math.max(heap.totalBytes, peak.totalBytes);
    heap.samples += peak.samples;
    return {
      statements,
      ms,
      longestD1Ms: log.d1_longest_ms ?? 0,
      rowsWritten: log.d1_rows_written ?? 0,
    };
  };
  const runFloor = async (): Promise<ImportSample> => {
    const started = performance.now();
    const res = await post(server, FLOOR, "/import", body, `floor-${id}`);
    const text = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`floor import ${id}: ${res.status} ${text}`);
    return {
      statements,
      ms,
      longestD1Ms: Number(res.headers.get("x-d1-ms")),
      rowsWritten: Number(res.headers.get("x-d1-rows-written")),
    };
  };
  if (round.serviceFirst) {
    const service = await runService();
    return [service, await runFloor()];
  }
  const floor = await runFloor();
  return [await runService(), floor];
}

/** The size of a bench Worker's database, in bytes. */
export async function sizeOf(server: BenchServer, worker: string): Promise<number> {
  const result = await (await server.database(worker)).prepare("SELECT 1").run();
  return result.meta.size_after;
}

/**
 * What each statement index costs, per statement, and what its event costs (the event's row and
 * its four indexes): D1 offers no dbstat, so a copy of each part is built and the database's
 * growth measured (the copy fills new pages), then dropped.
 */
async function indexBytes(server: BenchServer, worker: string, statements: number) {
  const db = await server.database(worker);
  const grow = async (create: string) => {
    const before = await sizeOf(server, worker);
    const after = (await db.prepare(create).run()).meta.size_after;
    return (after - before) / statements;
  };
  const page = await grow(
    "CREATE INDEX probe_page_idx ON statements (account_id, period_end_date, statement_id) " +
      "WHERE hidden_at IS NULL",
  );
  const id = await grow("CREATE UNIQUE INDEX probe_id_idx ON statements (statement_id)");
  let event = await grow("CREATE TABLE probe_events AS SELECT * FROM events");
  // The events table's four indexes: its primary key, events_page_idx, the (statement, type)
  // unique index and events_created_idx (migrations/0004).
  const eventIndexes = [
    "event_id",
    "partner_id, environment, merchant_key, created_at, event_id",
    "statement_id, type",
    "created_at",
  ];
  for (const [i, columns] of eventIndexes.entries()) {
    event += await grow(`CREATE INDEX probe_events_${i} ON probe_events (${columns})`);
  }
  await db.batch([
    db.prepare("DROP INDEX probe_page_idx"),
    db.prepare("DROP INDEX probe_id_idx"),
    db.prepare("DROP TABLE probe_events"),
  ]);
  return { page, id, event };
}

/** V8 flags capping each isolate's heap, as a Worker isolate is capped in production. */
const heapCap = (mb: number) => [`--max-old-space-size=${mb}`];

/** The largest body, once, in a fresh workerd whose V8 heap is capped at `capMb`. */
async function largestUnderCap(
  options: { dataDir: string; apiScript: string; floorScript: string },
  capMb: number,
): Promise<ImportResults["headroom"]> {
  const stateDir = path.join(options.dataDir, "import-headroom-state");
  await rm(stateDir, { recursive: true, force: true });
  const server = await startServer({
    ...options,
    stateDir,
    watchPrefix: "bench-import-",
    v8Flags: heapCap(capMb),
    workers: [{ name: SERVICE, script: "api", database: "bench-import-headroom" }],
  });
  try {
    await migrateService(server, SERVICE);
    const body = largestBody("h", MAX_IMPORT_BYTES);
    const started = performance.now();
    try {
      const res = await post(server, SERVICE, "/operator/v1/import", body, "bench-import-cap");
      await res.arrayBuffer();
      return { capMb, status: res.status, ms: performance.now() - started };
    } catch (err) {
      return { capMb, status: String(err), ms: performance.now() - started };
    }
  } finally {
    await server.dispose();
    await rm(stateDir, { recursive: true, force: true });
  }
}

interface ImportOptions {
  dataDir: string;
  apiScript: string;
  floorScript: string;
  total: number;
  progress: (message: string) => void;
}

/** Runs of the largest accepted body in the import arms. */
const LARGEST_RUNS = ["a", "b", "c"] as const;

/**
 * Runs the import arms into `imports`, part by part, telling `onPart` as each finishes; answers
 * `imports`. A part that fails is told with its reason and the next part still runs.
 */
export async function runImportArms(
  options: ImportOptions,
  imports: ImportResults = emptyImports(),
  onPart: OnImportPart = async () => {},
): Promise<ImportResults> {
  const part = async (name: string, work: () => Promise<void>) => {
    try {
      await work();
      await onPart(name);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      options.progress(`✖ ${name} failed: ${reason}`);
      await onPart(name, reason);
    }
  };
  const stateDir = path.join(options.dataDir, "import-state");
  const fresh = async () => {
    await rm(stateDir, { recursive: true, force: true });
    const server = await startServer({
      stateDir,
      apiScript: options.apiScript,
      floorScript: options.floorScript,
      watchPrefix: "bench-import-",
      inspectorPort: INSPECTOR_PORT,
      v8Flags: heapCap(PRODUCTION_HEAP_MB),
      workers: [
        { name: SERVICE, script: "api", database: "bench-import" },
        { name: FLOOR, script: "floor", database: "bench-import-floor" },
      ],
    });
    await migrateService(server, SERVICE);
    await applyMigrations(await server.database(FLOOR));
    for (const worker of [SERVICE, FLOOR]) await seedImportTenants(await server.database(worker));
    return server;
  };
  let server = await fresh();
  try {
    await part("import arms: growth", () => monthly(server, options, imports));
    await part("import arms: index sizes", async () => {
      options.progress("import arms: index sizes (building a copy of each statement index)");
      imports.indexBytesPerStatement = await indexBytes(server, FLOOR, imports.total);
    });
    options.progress(`import arms: the largest accepted body, ${LARGEST_RUNS.length} times`);
    for (const tag of LARGEST_RUNS) {
      let failed = false;
      await part(`import arms: largest body, run ${tag}`, async () => {
        try {
          imports.largest.push(await largest(server, tag));
        } catch (err) {
          failed = true;
          throw err;
        }
      });
      // A run that failed may have taken the runtime with it: the next run gets a fresh one.
      if (failed) {
        await server.dispose().catch(() => {});
        server = await fresh();
      }
    }
  } finally {
    await server.dispose().catch(() => {});
    await rm(stateDir, { recursive: true, force: true });
  }
  await part("import arms: headroom", async () => {
    options.progress(
      `import arms: the largest body with V8's heap capped at ${HEADROOM_HEAP_MB} MB`,
    );
    imports.headroom = await largestUnderCap(options, HEADROOM_HEAP_MB);
  });
  return imports;
}

/** Month by month, both sides, until each table holds `options.total` statements. */
async function monthly(
  server: BenchServer,
  options: ImportOptions,
  imports: ImportResults,
): Promise<void> {
  const sizeBefore = {
    service: await sizeOf(server, SERVICE),
    floor: await sizeOf(server, FLOOR),
  };
  const months = Math.max(1, Math.round(options.total / IMPORT_ACCOUNTS));
  const { service, floor, monthlyHeap } = imports;
  options.progress(
    `import arms: ${months} requests of ${IMPORT_ACCOUNTS.toLocaleString("en")} statements ` +
      "each, service and floor alternately",
  );
  for (let month = 0; month < months; month++) {
    const [serviceSample, floorSample] = await importRound({
      server,
      inspectorPort: INSPECTOR_PORT,
      body: monthlyBody(month),
      id: String(month),
      statements: IMPORT_ACCOUNTS,
      heap: monthlyHeap,
      serviceFirst: month % 2 === 0,
    });
    service.push(serviceSample);
    floor.push(floorSample);
    imports.total = (month + 1) * IMPORT_ACCOUNTS;
    imports.segments = segmentsOf(service, floor);
    if (imports.total % SEGMENT === 0 || month === months - 1) {
      options.progress(
        `import arms: ${imports.total.toLocaleString("en")} statements in each table`,
      );
    }
  }
  const sizeAfter = {
    service: await sizeOf(server, SERVICE),
    floor: await sizeOf(server, FLOOR),
  };
  imports.bytesPerStatement = {
    service: (sizeAfter.service - sizeBefore.service) / imports.total,
    floor: (sizeAfter.floor - sizeBefore.floor) / imports.total,
  };
}

/** The largest accepted body once, with new ids (`tag`), the Worker's memory sampled. */
async function largest(server: BenchServer, tag: string): Promise<LargestImport> {
  const body = largestBody(tag, MAX_IMPORT_BYTES);
  const requestId = `bench-import-largest-${tag}`;
  const started = performance.now();
  const { result: res, peak } = await heapPeakDuring(INSPECTOR_PORT, workerIsolate(SERVICE), () =>
    post(server, SERVICE, "/operator/v1/import", body, requestId),
  );
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`largest import: ${res.status} ${text.slice(0, 500)}`);
  const log = (await server.logOf(requestId)) as unknown as ImportLog;
  return {
    bytes: Buffer.byteLength(body),
    status: res.status,
    ms,
    longestD1Ms: log.d1_longest_ms ?? 0,
    d1Queries: log.d1_queries,
    rowsWritten: log.d1_rows_written ?? 0,
    heap: peak,
  };
}

/** Statements per second of each side, per segment of SEGMENT statements. */
function segmentsOf(service: ImportSample[], floor: ImportSample[]): ImportSegment[] {
  const segments: ImportSegment[] = [];
  const rate = (samples: ImportSample[]) =>
    (samples.reduce((n, s) => n + s.statements, 0) * 1000) /
    samples.reduce((ms, s) => ms + s.ms, 0);
  const perSegment = Math.max(1, Math.round(SEGMENT / (service[0]?.statements ?? SEGMENT)));
  for (let i = 0; i < service.length; i += perSegment) {
    const s = service.slice(i, i + perSegment);
    const f = floor.slice(i, i + perSegment);
    segments.push({
      upTo: (i + s.length) * (service[0]?.statements ?? 0),
      serviceRate: rate(s),
      floorRate: rate(f),
    });
  }
  return segments;
}
