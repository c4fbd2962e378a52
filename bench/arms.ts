// The arms: what each timed load sends. Arms that are compared with each other sit next to each
// other, so that they run back to back (see runRounds in bench/run.ts).
import { readdirSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../builds/worker.ts";
import {
  BESIDE_ON_00,
  type CardProgramme,
  CUSTOMER,
  DEEP_ACCOUNT,
  EVENT_POOL_ORDERS,
  LINE_ITEMS_STATEMENT,
  MAIN_ACCOUNT,
  MERCHANT_KEY,
  ON_SHARD_01,
  PARTNER,
  poolOrder,
} from "./data.ts";
import type { Target } from "./load.ts";
import {
  floorLineItemsPath,
  floorPath,
  floorReadsPath,
  lineItemsPath,
  type PagePosition,
  statementsPath,
} from "./probe.ts";
import type { WorkerName } from "./serve.ts";

/** The oldest dated version module in versions/: the longest chain of transforms from latest. */
export const OLDEST_VERSION = readdirSync(path.join(ROOT, "versions"))
  .filter((file) => /^\d{4}-\d{2}-\d{2}\.ts$/.test(file))
  .sort()[0]
  ?.replace(/\.ts$/, "") as string;

export interface Arm {
  id: string;
  label: string;
  url: string;
  headers?: Record<string, string>;
  /** Requests sent in turn (see bench/load.ts): load spread over several partners. */
  rotation?: { path: string; headers: Record<string, string> }[];
  /** POSTs with bodies spread over rows (see bench/load.ts). */
  post?: Target["post"];
  /** Statements before the page, for the depth chart. */
  depth?: number;
}

export function defineArms(
  url: (worker: WorkerName, route: string) => string,
  options: {
    keys: { large: string; small: string; shard01: string; beside: string };
    positions: PagePosition[];
    /** Line items pages' positions (first page, deep); no line items arms when absent. */
    lineItemPositions?: PagePosition[];
    /** The card programme's rows and keys; no arms of its routes when absent. */
    programme?: CardProgramme;
  },
): Arm[] {
  const large = { authorization: `Bearer ${options.keys.large}` };
  const page = (account: string, customer: string, key: string) => ({
    path: statementsPath(account, "limit=10", customer),
    headers: { authorization: `Bearer ${key}` },
  });
  const mainPage = page(MAIN_ACCOUNT, CUSTOMER, options.keys.large);

  const arms: Arm[] = [
    { id: "hello", label: "hello (bare handler, static JSON)", url: url("floor", "/hello") },
  ];
  for (const limit of [10, 100]) {
    arms.push(
      // Diagnostic, next to the floor: the floor without the rate-limit checks, as it was
      // before the service had rate limits.
      {
        id: `bare-floor-${limit}`,
        label: `floor, limit=${limit}, rate limiters not bound (diagnostic)`,
        url: url("bare-floor", floorPath(MAIN_ACCOUNT, limit)),
      },
      {
        id: `floor-${limit}`,
        label: `floor, limit=${limit}`,
        url: url("floor", floorPath(MAIN_ACCOUNT, limit)),
      },
      {
        id: `statements-${limit}`,
        label: `statements, full pipeline, limit=${limit}`,
        url: url("api", statementsPath(MAIN_ACCOUNT, `limit=${limit}`)),
        headers: large,
      },
      // The same service with its request log off (the REQUEST_LOGS queue unbound), next to it.
      {
        id: `unlogged-${limit}`,
        label: `statements, limit=${limit}, request log off`,
        url: url("api-unlogged", statementsPath(MAIN_ACCOUNT, `limit=${limit}`)),
        headers: large,
      },
      // Diagnostic, next to the arm it is compared with: Miniflare's rate limiters are a call
      // into another isolate per check, where production's are local to the machine.
      {
        id: `unlimited-${limit}`,
        label: `statements, limit=${limit}, rate limiters not bound (diagnostic)`,
        url: url("api-unlimited", statementsPath(MAIN_ACCOUNT, `limit=${limit}`)),
        headers: large,
      },
    );
  }
  // Diagnostics: where the gap between the floor and the service comes from.
  for (const limit of [10, 100]) {
    for (const [route, label] of [
      ["two-trips", "floor + the key lookup and ownership check, 2 round trips (as before)"],
      ["one-trip", "floor + the same reads in 1 round trip (as the service now reads)"],
    ] as const) {
      arms.push({
        id: `${route}-${limit}`,
        label: `${label}, limit=${limit}`,
        url: url("floor", floorReadsPath(route, MAIN_ACCOUNT, CUSTOMER, limit)),
        headers: large,
      });
    }
  }
  // Shards: the same page of a partner alike on the second shard (equal cost per request), then
  // the same load spread over two partners of one shard and over two partners on two shards.
  const onShard01 = page(ON_SHARD_01.account, ON_SHARD_01.customer, options.keys.shard01);
  const beside = page(BESIDE_ON_00.account, BESIDE_ON_00.customer, options.keys.beside);
  arms.push(
    {
      id: "shard-00-10",
      label: "statements, limit=10, a partner on shard 00",
      url: url("api", mainPage.path),
      headers: mainPage.headers,
    },
    {
      id: "shard-01-10",
      label: "statements, limit=10, a partner alike on shard 01",
      url: url("api", onShard01.path),
      headers: onShard01.headers,
    },
    {
      id: "one-shard-10",
      label: "statements, limit=10, two partners in turn, both on shard 00",
      url: url("api", mainPage.path),
      rotation: [mainPage, beside],
    },
    {
      id: "two-shards-10",
      label: "statements, limit=10, two partners in turn, on shards 00 and 01",
      url: url("api", mainPage.path),
      rotation: [mainPage, onShard01],
    },
  );
  arms.push(
    {
      id: "small-table-10",
      label: "statements, limit=10, 1,000 statements in the table",
      url: url("api-small", statementsPath(MAIN_ACCOUNT, "limit=10")),
      headers: { authorization: `Bearer ${options.keys.small}` },
    },
    {
      id: "large-table-10",
      label: "statements, limit=10, 1,000,000 statements in the table",
      url: url("api", statementsPath(MAIN_ACCOUNT, "limit=10")),
      headers: large,
    },
  );
  for (const version of ["latest", OLDEST_VERSION]) {
    arms.push({
      id: `version-${version}`,
      label: `statements, limit=10, x-service-version: ${version}`,
      url: url("api", statementsPath(MAIN_ACCOUNT, "limit=10")),
      headers: { ...large, "x-service-version": version },
    });
  }
  if (options.lineItemPositions) {
    arms.push(...lineItemArms(url, options.keys.large, options.lineItemPositions));
  }
  if (options.programme) {
    arms.push(...programmeArms(url, options.programme, options.keys.large));
  }
  // The depth pair (first page, deepest page) first, then the rest of the curve.
  const byDepth = [...options.positions].sort((a, b) => a.depth - b.depth);
  const deepest = byDepth.pop();
  const first = byDepth.shift();
  for (const p of [first, deepest, ...byDepth]) {
    if (!p) continue;
    const depth = p.depth.toLocaleString("en");
    arms.push({
      id: `depth-${p.depth}`,
      label: `statements, limit=10, ${depth} deep`,
      url: url(
        "api",
        statementsPath(DEEP_ACCOUNT, `limit=10${p.token ? `&starting_after=${p.token}` : ""}`),
      ),
      headers: large,
      depth: p.depth,
    });
  }
  for (const p of options.positions) {
    arms.push({
      id: `floor-depth-${p.depth}`,
      label: `floor, limit=10, ${p.depth.toLocaleString("en")} deep`,
      url: url("floor", floorPath(DEEP_ACCOUNT, 10, p.floorCursor)),
      depth: p.depth,
    });
  }
  return arms;
}

/**
 * The line items arms: a page of one statement's line items (LINE_ITEMS_STATEMENT) at limit 10
 * and 100, each next to the floor running the same keyset query, then the depth pair (limit 10 on
 * the first page and at the deepest position).
 */
export function lineItemArms(
  url: (worker: WorkerName, route: string) => string,
  key: string,
  positions: PagePosition[],
): Arm[] {
  const headers = { authorization: `Bearer ${key}` };
  const arms: Arm[] = [];
  for (const limit of [10, 100]) {
    arms.push(
      {
        id: `line-items-floor-${limit}`,
        label: `line items floor, limit=${limit}`,
        url: url("floor", floorLineItemsPath(LINE_ITEMS_STATEMENT, limit)),
      },
      {
        id: `line-items-${limit}`,
        label: `line items, full pipeline, limit=${limit}`,
        url: url("api", lineItemsPath(DEEP_ACCOUNT, LINE_ITEMS_STATEMENT, `limit=${limit}`)),
        headers,
      },
    );
  }
  const byDepth = [...positions].sort((a, b) => a.depth - b.depth);
  for (const p of byDepth) {
    const query = `limit=10${p.token ? `&starting_after=${p.token}` : ""}`;
    arms.push({
      id: `line-items-depth-${p.depth}`,
      label: `line items, limit=10, ${p.depth.toLocaleString("en")} items deep`,
      url: url("api", lineItemsPath(DEEP_ACCOUNT, LINE_ITEMS_STATEMENT, query)),
      headers,
    });
  }
  return arms;
}

/** The bench partner's read scope, as a floor request names it (the service takes it from a key). */
const FLOOR_SCOPE = `partner=${PARTNER}&environment=sandbox&merchant=${MERCHANT_KEY}`;

/**
 * The card programme's arms, each next to its floor (bench/floor-worker.ts, the route's own
 * statement): the customer's cards, the orders and the customer's transaction intents at limit 10
 * and 100, an order event's create (a capture of 1 on each order of a pool in turn), and an
 * account's rewards categories (read with `accountKey`, an ACCOUNT_READ key of the partner).
 */
export function programmeArms(
  url: (worker: WorkerName, route: string) => string,
  programme: CardProgramme,
  accountKey: string,
): Arm[] {
  const headers = { authorization: `Bearer ${programme.key}` };
  const arms: Arm[] = [];
  const lists = [
    [
      "payment-methods",
      "payment methods",
      "/payment-methods",
      `/v2/payment_methods?customer_id=${CUSTOMER}&`,
    ],
    ["orders", "orders", "/orders", "/v2/orders?"],
    [
      "intents",
      "a customer's transaction intents",
      "/intents",
      `/v2/customers/${CUSTOMER}/transaction_intents?`,
    ],
  ] as const;
  for (const limit of [10, 100]) {
    for (const [id, label, floorRoute, route] of lists) {
      arms.push(
        {
          id: `${id}-floor-${limit}`,
          label: `${label} floor, limit=${limit}`,
          url: url("floor", `${floorRoute}?${FLOOR_SCOPE}&customer=${CUSTOMER}&limit=${limit}`),
        },
        {
          id: `${id}-${limit}`,
          label: `${label}, full pipeline, limit=${limit}`,
          url: url("api", `${route}limit=${limit}`),
          headers,
        },
      );
    }
  }
  // Each side captures on its own pool of orders, so that neither fills the other's.
  const pool = (side: "service" | "floor") =>
    Array.from({ length: EVENT_POOL_ORDERS }, (_, n) => poolOrder(side, n));
  const capture = { type: "CAPTURED", amount: 1, network_transaction_id: "ntx_bench" };
  arms.push(
    {
      id: "order-events-floor",
      label: "order event create floor (its writes in one batch)",
      url: url("floor", `/order-events?${FLOOR_SCOPE}`),
      post: { body: capture, field: "order_id", values: pool("floor") },
    },
    {
      id: "order-events",
      label: "order event create, full pipeline",
      url: url("api", "/v2/order_events"),
      headers,
      post: { body: capture, field: "order_id", values: pool("service") },
    },
  );
  // An account's rewards categories: the product's whole list (six categories), never paged.
  // Read with an ACCOUNT_READ key of the same partner.
  arms.push(
    {
      id: "rewards-categories-floor",
      label: "rewards categories floor",
      url: url("floor", `/rewards-categories?account=${MAIN_ACCOUNT}`),
    },
    {
      id: "rewards-categories",
      label: "rewards categories, full pipeline",
      url: url("api", `/v2/customers/${CUSTOMER}/accounts/${MAIN_ACCOUNT}/rewards_categories`),
      headers: { authorization: `Bearer ${accountKey}` },
    },
  );
  return arms;
}
