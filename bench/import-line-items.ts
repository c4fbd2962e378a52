// The line items import arm: statements carrying 30 line items each, through the operator import
// of the production bundle, against the floor inserting the same rows (each statement, its
// `statement.created` event and each line item) in multi-row INSERTs of up to D1's 100 bound
// parameters, in one D1 batch; requests of 833 statements (24,990 line items, the most an import
// takes) alternating which side goes first, until each table holds `totalLineItems`. Rates are
// compared per 100,000 line items, as the statements import's are per 100,000 statements. Then
// what a line item costs in bytes: the service's database growth per line item, and the row and
// each of its three indexes measured apart by building a copy of each on the floor's database.
import { rm } from "node:fs/promises";
import path from "node:path";
import { applyMigrations, migrateService } from "./data.ts";
import {
  type ImportSample,
  type ImportSegment,
  importRound,
  type LineItemImportResults,
  sizeOf,
} from "./import.ts";
import {
  LINE_ITEM_STATEMENTS_PER_REQUEST,
  LINE_ITEMS_PER_STATEMENT,
  lineItemBody,
  seedImportTenants,
} from "./import-data.ts";
import { type BenchServer, freePort, startServer } from "./serve.ts";

const SERVICE = "importer";
const FLOOR = "import-floor";
/** Line items per segment of the growth curve. */
export const LINE_ITEM_SEGMENT = 100_000;

/** Line items per second of each side, per segment. */
export function lineItemSegments(service: ImportSample[], floor: ImportSample[]): ImportSegment[] {
  const items = (samples: ImportSample[]) =>
    samples.reduce((n, s) => n + s.statements * LINE_ITEMS_PER_STATEMENT, 0);
  const rate = (samples: ImportSample[]) =>
    (items(samples) * 1000) / samples.reduce((ms, s) => ms + s.ms, 0);
  const segments: ImportSegment[] = [];
  let from = 0;
  while (from < service.length) {
    let to = from;
    // Requests until the segment's line items reach the next multiple of the segment.
    const end =
      (Math.floor(items(service.slice(0, from)) / LINE_ITEM_SEGMENT) + 1) * LINE_ITEM_SEGMENT;
    while (to < service.length && items(service.slice(0, to)) < end) to += 1;
    segments.push({
      upTo: items(service.slice(0, to)),
      serviceRate: rate(service.slice(from, to)),
      floorRate: rate(floor.slice(from, to)),
    });
    from = to;
  }
  return segments;
}

/** A line item's row and its indexes in bytes each, from copies built on `worker`'s database. */
async function lineItemBytes(server: BenchServer, worker: string, count: number) {
  const db = await server.database(worker);
  const grow = async (create: string) => {
    const before = await sizeOf(server, worker);
    const after = (await db.prepare(create).run()).meta.size_after;
    return (after - before) / count;
  };
  const row = await grow("CREATE TABLE probe_li AS SELECT * FROM statement_line_items");
  const primaryKey = await grow(
    "CREATE UNIQUE INDEX probe_li_pk ON probe_li (statement_id, line_item_id)",
  );
  const page = await grow(
    "CREATE INDEX probe_li_page ON probe_li (statement_id, posted_at, line_item_id)",
  );
  const type = await grow(
    "CREATE INDEX probe_li_type ON probe_li (statement_id, type, posted_at, line_item_id)",
  );
  await db.prepare("DROP TABLE probe_li").run();
  return { row, primaryKey, page, type };
}

/**
 * Runs the line items import arm on its own workerd (V8 heap capped at 128 MB), over empty
 * databases seeded with the import arms' 5,000 accounts, until each table holds
 * `options.totalLineItems`; `onRequest` is told after each pair of requests.
 */
export async function runLineItemImport(options: {
  dataDir: string;
  apiScript: string;
  floorScript: string;
  totalLineItems: number;
  progress: (message: string) => void;
  onRequest?: (results: LineItemImportResults) => Promise<void>;
}): Promise<LineItemImportResults> {
  const inspectorPort = await freePort();
  const stateDir = path.join(options.dataDir, "import-line-items-state");
  await rm(stateDir, { recursive: true, force: true });
  const server = await startServer({
    stateDir,
    apiScript: options.apiScript,
    floorScript: options.floorScript,
    watchPrefix: "bench-import-",
    inspectorPort,
    v8Flags: ["--max-old-space-size=128"],
    workers: [
      { name: SERVICE, script: "api", database: "bench-import-li" },
      { name: FLOOR, script: "floor", database: "bench-import-li-floor" },
    ],
  });
  const perRequest = LINE_ITEM_STATEMENTS_PER_REQUEST * LINE_ITEMS_PER_STATEMENT;
  const results: LineItemImportResults = {
    statementsPerRequest: LINE_ITEM_STATEMENTS_PER_REQUEST,
    lineItemsPerStatement: LINE_ITEMS_PER_STATEMENT,
    total: 0,
    service: [],
    floor: [],
    segments: [],
    heap: { usedBytes: 0, totalBytes: 0, samples: 0 },
    bytesPerLineItemWithStatement: Number.NaN,
    lineItemBytes: { row: Number.NaN, primaryKey: Number.NaN, page: Number.NaN, type: Number.NaN },
  };
  try {
    await migrateService(server, SERVICE);
    await applyMigrations(await server.database(FLOOR));
    for (const worker of [SERVICE, FLOOR]) await seedImportTenants(await server.database(worker));
    const sizeBefore = await sizeOf(server, SERVICE);
    const requests = Math.max(1, Math.ceil(options.totalLineItems / perRequest));
    options.progress(
      `line items import: ${requests} requests of ${LINE_ITEM_STATEMENTS_PER_REQUEST} statements ` +
        `(${perRequest.toLocaleString("en")} line items) each, service and floor alternately`,
    );
    for (let r = 0; r < requests; r++) {
      const [serviceSample, floorSample] = await importRound({
        server,
        inspectorPort,
        body: lineItemBody(r),
        id: `li-${r}`,
        statements: LINE_ITEM_STATEMENTS_PER_REQUEST,
        heap: results.heap,
        serviceFirst: r % 2 === 0,
      });
      results.service.push(serviceSample);
      results.floor.push(floorSample);
      results.total = (r + 1) * perRequest;
      results.segments = lineItemSegments(results.service, results.floor);
      const segment = results.segments.at(-1);
      if (segment && (r === requests - 1 || segment.upTo % LINE_ITEM_SEGMENT < perRequest)) {
        options.progress(
          `line items import: ${results.total.toLocaleString("en")} line items in each table ` +
            `(import ÷ floor ${(segment.serviceRate / segment.floorRate).toFixed(2)} in this segment)`,
        );
      }
      await options.onRequest?.(results);
    }
    results.bytesPerLineItemWithStatement =
      ((await sizeOf(server, SERVICE)) - sizeBefore) / results.total;
    options.progress("line items import: a line item's row and indexes (building a copy of each)");
    results.lineItemBytes = await lineItemBytes(server, FLOOR, results.total);
    return results;
  } finally {
    await server.dispose().catch(() => {});
    await rm(stateDir, { recursive: true, force: true });
  }
}
