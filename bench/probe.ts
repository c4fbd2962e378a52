// Single requests the timed arms need before they start: page tokens at chosen depths of the deep
// account (reached by paging, as a partner would), and each request's D1 cost from its log line.
import { randomInt } from "node:crypto";
import { crc32 } from "node:zlib";
import { CUSTOMER, DEEP_ACCOUNT, LINE_ITEMS_STATEMENT } from "./data.ts";
import type { BenchServer, WorkerName } from "./serve.ts";

interface StatementBody {
  statement_id: string;
  period_end_date: string;
}

interface PageBody {
  data: StatementBody[];
  has_more: boolean;
  next_page_token?: string;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * A well-formed key that no partner holds: random, with the checksum src/domain/api-keys.ts
 * checks (CRC-32 of the rest, 6 base62 digits), so the service looks it up.
 */
export function unknownKey(): string {
  let body = "sk_live_";
  for (let i = 0; i < 32; i++) body += BASE62[randomInt(62)];
  let sum = "";
  for (let rest = crc32(body), i = 0; i < 6; i++, rest = Math.floor(rest / 62)) {
    sum = BASE62[rest % 62] + sum;
  }
  return body + sum;
}

/** The floor's path for a page of `accountId` (see bench/floor-worker.ts). */
export function floorPath(accountId: string, limit: number, floorCursor = ""): string {
  return `/statements?account=${accountId}&limit=${limit}${floorCursor ? `&${floorCursor}` : ""}`;
}

/**
 * The floor's path for a first page of `accountId` with the service's other reads of `customerId`
 * (key, partner, account): in one round trip or, as the service read before, two.
 */
export function floorReadsPath(
  route: "one-trip" | "two-trips",
  accountId: string,
  customerId: string,
  limit: number,
): string {
  return `/${route}?account=${accountId}&customer=${customerId}&limit=${limit}`;
}

/** Where a page starts: the partner's token and the same position as the floor takes it. */
export interface PagePosition {
  /** Statements listed before this page. */
  depth: number;
  /** `starting_after=…` for the service (empty on the first page). */
  token: string;
  /** `after_end=…&after_id=…` for the floor (empty on the first page). */
  floorCursor: string;
}

export function statementsPath(accountId: string, query: string, customer = CUSTOMER): string {
  return `/v2/customers/${customer}/accounts/${accountId}/statements?${query}`;
}

async function getPage(
  server: BenchServer,
  worker: WorkerName,
  path: string,
  headers: Record<string, string>,
  expected = 200,
): Promise<PageBody> {
  const res = await fetch(new URL(path, server.url(worker)), { headers });
  const text = await res.text();
  if (res.status !== expected) throw new Error(`GET ${path}: ${res.status} ${text}`);
  return res.status === 200 ? (JSON.parse(text) as PageBody) : { data: [], has_more: false };
}

/**
 * Pages through `accountId` 100 statements at a time (inside the date filters `filter`, a query
 * string, if given) and returns the position of a page starting at each of `depths` (multiples
 * of 100, ascending).
 */
export async function positionsAt(
  server: BenchServer,
  accountId: string,
  key: string,
  depths: readonly number[],
  filter = "",
): Promise<PagePosition[]> {
  const headers = { authorization: `Bearer ${key}` };
  const positions: PagePosition[] = [];
  let token = "";
  let floorCursor = "";
  for (let seen = 0; positions.length < depths.length; seen += 100) {
    if (depths.includes(seen)) positions.push({ depth: seen, token, floorCursor });
    if (positions.length === depths.length) break;
    const query = `limit=100${filter ? `&${filter}` : ""}${token ? `&starting_after=${token}` : ""}`;
    const page = await getPage(server, "api", statementsPath(accountId, query), headers);
    const last = page.data.at(-1);
    if (!page.next_page_token || !last) throw new Error(`${accountId} ends before ${seen + 100}`);
    token = page.next_page_token;
    floorCursor =
      `after_end=${encodeURIComponent(last.period_end_date)}` +
      `&after_id=${encodeURIComponent(last.statement_id)}`;
  }
  return positions;
}

export interface RequestCost {
  label: string;
  limit: number;
  depth: number;
  status: number;
  roundTrips: number;
  rowsRead: number;
  rowsReturned: number;
  /** What the same keyset query reads on its own (measured on the floor), when known. */
  pageQueryRows?: number;
}

let probes = 0;

/** Sends one request and reads its D1 cost from the log line the Worker printed for it. */
export async function costOf(
  server: BenchServer,
  options: {
    label: string;
    worker: "api" | "api-small" | "api-unlogged";
    path: string;
    key: string;
    limit: number;
    depth: number;
    /** The floor's URL path for the same page, to measure the page query alone. */
    floorPath?: string;
    /** The status the request must answer (200 unless told). */
    status?: number;
  },
): Promise<RequestCost> {
  probes += 1;
  const requestId = `bench-cost-${probes}`;
  const page = await getPage(
    server,
    options.worker,
    options.path,
    { authorization: `Bearer ${options.key}`, "x-request-id": requestId },
    options.status,
  );
  const log = await server.logOf(requestId);
  let pageQueryRows: number | undefined;
  if (options.floorPath) {
    const res = await fetch(new URL(options.floorPath, server.url("floor")));
    await res.arrayBuffer();
    pageQueryRows = Number(res.headers.get("x-d1-rows-read"));
  }
  return {
    pageQueryRows,
    label: options.label,
    limit: options.limit,
    depth: options.depth,
    status: log.status,
    roundTrips: log.d1_queries,
    rowsRead: log.d1_rows_read,
    rowsReturned: page.data.length,
  };
}

/** The service's path of a statement's line items (of the bench customer's deep account). */
export function lineItemsPath(
  accountId: string,
  statementId: string,
  query: string,
  customer = CUSTOMER,
): string {
  return `/v2/customers/${customer}/accounts/${accountId}/statements/${statementId}/line_items?${query}`;
}

/** The floor's path for a page of a statement's line items (see bench/floor-worker.ts). */
export function floorLineItemsPath(statementId: string, limit: number, floorCursor = ""): string {
  return `/line-items?statement=${statementId}&limit=${limit}${floorCursor ? `&${floorCursor}` : ""}`;
}

interface LineItemsPageBody {
  data: { line_item_id: string; posted_at: string }[];
  has_more: boolean;
  next_page_token?: string;
}

/**
 * Pages through a statement's line items 100 at a time and returns the position of a page
 * starting at each of `depths` (multiples of 100, ascending), for the service and the floor.
 */
export async function lineItemPositionsAt(
  server: BenchServer,
  accountId: string,
  statementId: string,
  key: string,
  depths: readonly number[],
): Promise<PagePosition[]> {
  const headers = { authorization: `Bearer ${key}` };
  const positions: PagePosition[] = [];
  let token = "";
  let floorCursor = "";
  for (let seen = 0; positions.length < depths.length; seen += 100) {
    if (depths.includes(seen)) positions.push({ depth: seen, token, floorCursor });
    if (positions.length === depths.length) break;
    const query = `limit=100${token ? `&starting_after=${token}` : ""}`;
    const path = lineItemsPath(accountId, statementId, query);
    const res = await fetch(new URL(path, server.url("api")), { headers });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${text}`);
    const page = JSON.parse(text) as LineItemsPageBody;
    const last = page.data.at(-1);
    if (!page.next_page_token || !last) throw new Error(`${statementId} ends before ${seen + 100}`);
    token = page.next_page_token;
    floorCursor =
      `after_posted=${encodeURIComponent(last.posted_at)}` +
      `&after_id=${encodeURIComponent(last.line_item_id)}`;
  }
  return positions;
}

/**
 * The D1 cost of the line items pages the arms send: limit 10 and 100, on the first page and at
 * every other position, each with what the floor's same keyset query reads alone.
 */
export async function measureLineItemCosts(
  server: BenchServer,
  key: string,
  positions: PagePosition[],
): Promise<RequestCost[]> {
  const costs: RequestCost[] = [];
  for (const limit of [10, 100]) {
    for (const p of positions) {
      const query = `limit=${limit}${p.token ? `&starting_after=${p.token}` : ""}`;
      costs.push(
        await costOf(server, {
          label: `line items, ${p.depth.toLocaleString("en")} deep`,
          worker: "api",
          path: lineItemsPath(DEEP_ACCOUNT, LINE_ITEMS_STATEMENT, query),
          key,
          limit,
          depth: p.depth,
          floorPath: floorLineItemsPath(LINE_ITEMS_STATEMENT, limit, p.floorCursor),
        }),
      );
    }
  }
  return costs;
}
