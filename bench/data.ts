// The bench's data: a million-statement table and a thousand-statement one, built once and reused
// while the migrations and this file's layout stay the same.
//
// What a partner sees (partner, product, customer, the measured accounts, keys, PDFs) goes through
// the operator API. The bulk (filler tenants and the 100,000-statement account) is inserted with
// SQL straight into D1, in the format the import writes (UTC RFC 3339 text with milliseconds).
import { createHash } from "node:crypto";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ROOT } from "../builds/worker.ts";
import { luhnCheckDigit } from "../src/domain/luhn.ts";
import { type BenchServer, OPERATOR_TOKEN } from "./serve.ts";

/** Besides the migrations, the files whose change means stored data may no longer fit. */
const DATA_SOURCES = [
  "bench/data.ts",
  "src/db/schema.ts",
  "src/accounts/schema.ts",
  "src/statements/schema.ts",
  "src/documents/schema.ts",
  "src/events/schema.ts",
  "src/webhook-endpoints/schema.ts",
  "src/saved-versions/schema.ts",
  "src/request-logs/schema.ts",
  "src/partner-moves/schema.ts",
  "src/imports/import.ts",
  "src/payment-methods/schema.ts",
  "src/orders/schema.ts",
  "src/transaction-intents/schema.ts",
  "src/keys/key-store.ts",
  "src/domain/api-keys.ts",
];

export const PARTNER = "bench_partner";
export const MERCHANT_KEY = "mk_bench";
export const CUSTOMER = "cus_bench";
/** 200 statements, every one with a PDF: the account the throughput arms read. */
export const MAIN_ACCOUNT = "acc_main";
const MAIN_STATEMENTS = 200;
/** 100,000 statements: the account the depth arm pages through (large table only). */
export const DEEP_ACCOUNT = "acc_deep";
export const DEEP_STATEMENTS = 100_000;
/**
 * The statement the line items arms read: the deep account's newest, carrying LINE_ITEMS_DEEP
 * line items, enough for a page 5,000 items deep at limit 100 (more than the import takes for one
 * statement, 1,000: inserted with SQL, so the depth figure reaches past any real statement's). The deep account's next
 * LINE_ITEM_FILLER_STATEMENTS statements carry 30 each, so the table holds about a million.
 */
export const LINE_ITEMS_STATEMENT = "st_deep_000000";
export const LINE_ITEMS_DEEP = 5_200;
const LINE_ITEM_FILLER_STATEMENTS = 33_300;
const FILLER_PER_ACCOUNT = 200;
const FILLER_PARTNERS = 50;
export const LARGE_TOTAL = 1_000_000;
export const SMALL_TOTAL = 1_000;

export interface Dataset {
  stamp: string;
  /**
   * Sandbox ACCOUNT_READ keys of the bench partner, one per database; and, in the large one, of
   * a partner alike on the second shard and of another on the first.
   */
  keys: { large: string; small: string; shard01: string; beside: string };
  /** The card programme's measured rows of the bench partner (large database): see CardProgramme. */
  programme: CardProgramme;
}

/** A card, orders and intents of the bench's customer, and the keys that read and write them. */
export interface CardProgramme {
  /** ORDER_READ, ORDER_WRITE, TRANSACTION_INTENT_READ and _WRITE, without PCI_DETAILS_READ. */
  key: string;
  /** The same scopes and PCI_DETAILS_READ: a card read by it carries `pci_details`. */
  pciKey: string;
  /** One of the customer's cards, for the PCI read's CPU. */
  card: string;
}

/** The customer's cards, orders (besides the event pools) and intents: pages of 100 and more. */
export const PROGRAMME_ROWS = 150;
/**
 * Orders an order event arm captures on, one each in turn: one pool for the service's arm and
 * one for its floor's, so that neither meets an order the other filled. An order holds at most 100
 * events (src/orders/api-schemas.ts), so each pool takes 200,000 captures: some 40 full runs of
 * `npm run bench` on one build of the data.
 */
export const EVENT_POOL_ORDERS = 2_000;
/** The order id of the `n`th order of an event pool. */
export const poolOrder = (pool: "service" | "floor", n: number) =>
  `ord_bench_${pool}_${String(n).padStart(5, "0")}`;

/** A partner with one customer and one measured account of MAIN_STATEMENTS statements. */
export interface BenchPartner {
  partner: string;
  merchantKey: string;
  customer: string;
  account: string;
  statementPrefix: string;
  shard: string;
}

/** The bench partner, on the first shard of each database. */
const MAIN: BenchPartner = {
  partner: "bench_partner",
  merchantKey: "mk_bench",
  customer: "cus_bench",
  account: "acc_main",
  statementPrefix: "st_main",
  shard: "00",
};

/** A partner like it on the second shard of the large database (its table holds only its own). */
export const ON_SHARD_01: BenchPartner = {
  partner: "bench_partner_01",
  merchantKey: "mk_bench_01",
  customer: "cus_bench_01",
  account: "acc_main_01",
  statementPrefix: "st_s01",
  shard: "01",
};

/** Another partner like it beside it on the first shard: two partners sharing one shard. */
export const BESIDE_ON_00: BenchPartner = {
  partner: "bench_partner_00b",
  merchantKey: "mk_bench_00b",
  customer: "cus_bench_00b",
  account: "acc_main_00b",
  statementPrefix: "st_s00b",
  shard: "00",
};

/**
 * The bench product's rewards categories, what a card of the kind typically lists: a few
 * categories of some merchant category codes each, and the catch-all.
 */
const CATEGORIES = [
  ["dining", "Dining", ["5812", "5813", "5814"], "3"],
  ["groceries", "Groceries", ["5411", "5422", "5451", "5462"], "2"],
  ["travel", "Travel", ["3000", "3001", "4511", "4722", "7011"], "2"],
  ["fuel", "Fuel", ["5541", "5542"], "1.5"],
  ["streaming", "Streaming", ["4899", "5815"], "1.5"],
  ["everything_else", "Everything else", [], "1"],
].map(([category_id, name, merchant_category_codes, earn_rate]) => ({
  category_id,
  name,
  merchant_category_codes,
  earn_rate,
  earn_unit: "POINTS_PER_DOLLAR",
}));

/** The stamp of what the data depends on: the migrations, the import and this layout. */
async function dataStamp(): Promise<string> {
  const hash = createHash("sha256");
  const files = [
    ...(await migrationFiles()),
    ...(await migrationFiles("migrations-directory")),
    ...DATA_SOURCES.map((f) => path.join(ROOT, f)),
  ];
  for (const file of files) {
    hash.update(file);
    hash.update(await readFile(file).catch(() => Buffer.alloc(0)));
  }
  return hash.digest("hex").slice(0, 16);
}

async function migrationFiles(folder = "migrations"): Promise<string[]> {
  const dir = path.join(ROOT, folder);
  return (await readdir(dir))
    .filter((f) => /^\d{4}_.*\.sql$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}

/** The dataset recorded in `file` if it matches the current stamp, else null. */
export async function cachedDataset(file: string): Promise<Dataset | null> {
  try {
    const dataset = JSON.parse(await readFile(file, "utf8")) as Dataset;
    return dataset.stamp === (await dataStamp()) ? dataset : null;
  } catch {
    return null;
  }
}

/** Removes stale state, so a rebuild starts from empty databases. */
export async function clearState(stateDir: string, file: string): Promise<void> {
  await rm(stateDir, { recursive: true, force: true });
  await rm(file, { force: true });
}

export type D1 = Awaited<ReturnType<BenchServer["database"]>>;

/** Applies the shards' migrations to `db` (the directory's, with `folder`). */
export async function applyMigrations(db: D1, folder = "migrations"): Promise<void> {
  for (const file of await migrationFiles(folder)) {
    const text = await readFile(file, "utf8");
    for (const chunk of text.split("--> statement-breakpoint")) {
      if (chunk.trim()) await db.prepare(chunk).run();
    }
  }
}

/** Migrates a service Worker's databases: both shards and the directory. */
export async function migrateService(server: BenchServer, worker: string): Promise<void> {
  await applyMigrations(await server.database(worker));
  await applyMigrations(await server.database(worker, "DB_01"));
  await applyMigrations(await server.database(worker, "DIRECTORY"), "migrations-directory");
}

async function operator(
  server: BenchServer,
  worker: "api" | "api-small",
  method: string,
  route: string,
  body: unknown,
  contentType = "application/json",
): Promise<Response> {
  const res = await fetch(new URL(`/operator/v1${route}`, server.url(worker)), {
    method,
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": contentType },
    body: body instanceof Uint8Array ? body : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return res;
}

/** The first instant of the month `monthsBack` months before October 2026. */
function monthStart(monthsBack: number): string {
  return new Date(Date.UTC(2026, 9 - monthsBack, 1)).toISOString();
}

/** The last second of that month. */
function monthEnd(monthsBack: number): string {
  return new Date(Date.UTC(2026, 10 - monthsBack, 1) - 1000).toISOString();
}

/** The partner, customer and measured accounts, through the operator API; returns a new key. */
async function seedPartner(
  server: BenchServer,
  worker: "api" | "api-small",
  deep: boolean,
  who: BenchPartner = MAIN,
): Promise<string> {
  const statements = Array.from({ length: MAIN_STATEMENTS }, (_, i) => ({
    statement_id: `${who.statementPrefix}_${String(i).padStart(4, "0")}`,
    account_id: who.account,
    period_start_date: monthStart(i),
    period_end_date: monthEnd(i),
    due_date: new Date(Date.parse(monthEnd(i)) + 25 * 86400_000).toISOString(),
    currency: "USD",
    statement_balance: 10_000 + i,
    minimum_due: 2_500,
    previous_balance: 9_000,
    purchases: 4_000 + i,
    payments: -3_000,
    credits: 0,
    refunds: -200,
    interest: 150,
    fees: 50,
    overdue_amount: 0,
  }));
  await operator(server, worker, "POST", "/import", {
    partners: [
      {
        partner_id: who.partner,
        name: "Bench Partner",
        shard: who.shard,
        products: [
          { merchant_key: who.merchantKey, name: "Bench Card", rewards_categories: CATEGORIES },
        ],
        saved_versions: { sandbox: "2025-05-05", production: "2025-05-05" },
      },
    ],
    customers: [
      {
        customer_id: who.customer,
        partner_id: who.partner,
        environment: "sandbox",
        merchant_key: who.merchantKey,
      },
    ],
    accounts: [
      { account_id: who.account, customer_id: who.customer, status: "OPEN", currency: "USD" },
      ...(deep
        ? [{ account_id: DEEP_ACCOUNT, customer_id: CUSTOMER, status: "OPEN", currency: "USD" }]
        : []),
    ],
    statements,
  });
  // Every listed statement carries a PDF, so every row of a page signs a link.
  const pdf = new TextEncoder().encode("%PDF-1.4\n% bench statement\n%%EOF\n");
  for (const s of statements) {
    await operator(
      server,
      worker,
      "PUT",
      `/statements/${s.statement_id}/pdf`,
      pdf,
      "application/pdf",
    );
  }
  const res = await operator(server, worker, "POST", `/partners/${who.partner}/keys`, {
    environment: "sandbox",
    scopes: ["ACCOUNT_READ"],
  });
  return ((await res.json()) as { api_key: string }).api_key;
}

const STATEMENT_COLUMNS =
  "statement_id, account_id, period_start_date, period_end_date, due_date, currency, " +
  "statement_balance, minimum_due, previous_balance, purchases, payments, credits, refunds, " +
  "interest, fees, overdue_amount, pdf_key, created_at";

/** `count` rows numbered from `from`, generated inside SQLite (one round trip per chunk). */
function seriesSql(from: number, count: number): string {
  return (
    `WITH RECURSIVE seq(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM seq ` +
    `WHERE n < ${from + count - 1}) `
  );
}

const CREATED = "'2026-11-01T00:00:00.000Z'";

/** The 100,000-statement account: one statement a day back from the newest, each with a PDF. */
async function insertDeepAccount(db: D1): Promise<void> {
  const chunk = 50_000;
  const day = (time: string, offset: string) =>
    `strftime('%Y-%m-%dT${time}Z', '2026-10-31', printf('%+d days', ${offset}))`;
  for (let from = 0; from < DEEP_STATEMENTS; from += chunk) {
    await db
      .prepare(
        `INSERT INTO statements (${STATEMENT_COLUMNS}) ${seriesSql(from, chunk)}` +
          `SELECT printf('st_deep_%06d', n), '${DEEP_ACCOUNT}', ` +
          `${day("00:00:00.000", "-n")}, ${day("23:59:59.000", "-n")}, ` +
          `${day("00:00:00.000", "25 - n")}, ` +
          "'USD', 10000 + n % 977, 2500, 9000, 4000, -3000, 0, -200, 150, 50, 0, " +
          `'statements/' || printf('st_deep_%06d', n) || '.pdf', ${CREATED} FROM seq`,
      )
      .run();
  }
}

const LINE_ITEM_COLUMNS =
  "statement_id, line_item_id, type, posted_at, transaction_date, description, amount, " +
  "merchant_name, merchant_category_code, merchant_city, merchant_country, original_amount, " +
  "original_currency, card_last4";

/**
 * Line item columns after the ids for item number `j` (a SQL expression) posted at `posted`: a
 * payment, an interest charge and purchases with a merchant, as the sandbox's simulations write
 * them (not checked to add up: nothing here reads the totals).
 */
function lineItemValuesSql(j: string, posted: string): string {
  const type = `CASE WHEN ${j} % 30 = 0 THEN 'PAYMENT' WHEN ${j} % 30 = 29 THEN 'INTEREST' ELSE 'PURCHASE' END`;
  const purchase = `${j} % 30 NOT IN (0, 29)`;
  const when = (value: string) => `CASE WHEN ${purchase} THEN ${value} ELSE NULL END`;
  return (
    `${type}, ${posted}, ${when(posted)}, ` +
    `CASE WHEN ${j} % 30 = 0 THEN 'PAYMENT - THANK YOU' WHEN ${j} % 30 = 29 ` +
    `THEN 'INTEREST CHARGE ON PURCHASES' ELSE printf('COFFEE ROASTERS #%04d SEATTLE WA', ${j}) END, ` +
    `CASE WHEN ${j} % 30 = 0 THEN -3000 ELSE 100 + ${j} % 977 END, ` +
    `${when(`printf('Coffee Roasters #%04d', ${j})`)}, ${when("'5814'")}, ` +
    `${when("'Seattle'")}, ${when("'US'")}, NULL, NULL, ${when("'4242'")}`
  );
}

/**
 * The line items: LINE_ITEMS_DEEP in LINE_ITEMS_STATEMENT (one every 16 seconds of its one-day
 * period), and 30 in each of the deep account's next LINE_ITEM_FILLER_STATEMENTS statements.
 */
async function insertLineItems(db: D1): Promise<void> {
  const stamp = (day: string, seconds: string) =>
    `strftime('%Y-%m-%dT%H:%M:%fZ', ${day}, printf('+%d seconds', ${seconds}))`;
  await db
    .prepare(
      `INSERT INTO statement_line_items (${LINE_ITEM_COLUMNS}) ${seriesSql(0, LINE_ITEMS_DEEP)}` +
        `SELECT '${LINE_ITEMS_STATEMENT}', printf('li_%05d', n), ` +
        `${lineItemValuesSql("n", stamp("'2026-10-31'", "n * 16"))} FROM seq`,
    )
    .run();
  const chunk = 300_000;
  const total = LINE_ITEM_FILLER_STATEMENTS * 30;
  for (let from = 0; from < total; from += chunk) {
    // Item n: the (n % 30)th of statement 1 + n / 30, a day further back per statement.
    const day = "strftime('%Y-%m-%d', '2026-10-31', printf('-%d days', 1 + n / 30))";
    await db
      .prepare(
        `INSERT INTO statement_line_items (${LINE_ITEM_COLUMNS}) ` +
          `${seriesSql(from, Math.min(chunk, total - from))}` +
          "SELECT printf('st_deep_%06d', 1 + n / 30), printf('li_%02d', n % 30), " +
          `${lineItemValuesSql("n", stamp(day, "(n % 30) * 2000"))} FROM seq`,
      )
      .run();
  }
}

/**
 * Other tenants, up to `statements` statements: partners, customers and accounts through the
 * operator import (in chunks it accepts), then 200 monthly statements per account with SQL.
 */
async function insertFiller(
  server: BenchServer,
  worker: "api" | "api-small",
  prefix: string,
  statements: number,
): Promise<void> {
  const accounts = statements / FILLER_PER_ACCOUNT;
  const partnerCount = Math.min(FILLER_PARTNERS, accounts);
  const partnerOf = (n: number) => `${prefix}p_${String(n % partnerCount).padStart(3, "0")}`;
  const productOf = (n: number) => `${prefix}mk_${String(n % partnerCount).padStart(3, "0")}`;
  const customerOf = (n: number) => `${prefix}cus_${String(n).padStart(5, "0")}`;
  const accountOf = (n: number) => `${prefix}acc_${String(n).padStart(5, "0")}`;
  const partners = Array.from({ length: partnerCount }, (_, n) => ({
    partner_id: partnerOf(n),
    name: "Filler",
    shard: "00",
    products: [{ merchant_key: productOf(n), name: "Filler Card" }],
  }));
  await operator(server, worker, "POST", "/import", { partners });
  const chunk = 500;
  for (let from = 0; from < accounts; from += chunk) {
    const ns = Array.from({ length: Math.min(chunk, accounts - from) }, (_, i) => from + i);
    await operator(server, worker, "POST", "/import", {
      customers: ns.map((n) => ({
        customer_id: customerOf(n),
        partner_id: partnerOf(n),
        environment: n % 2 === 0 ? "sandbox" : "production",
        merchant_key: productOf(n),
      })),
      accounts: ns.map((n) => ({
        account_id: accountOf(n),
        customer_id: customerOf(n),
        status: "OPEN",
        currency: "USD",
      })),
    });
  }

  const db = await server.database(worker);
  const rows = 100_000;
  for (let from = 0; from < statements; from += rows) {
    const count = Math.min(rows, statements - from);
    const month = `(n % ${FILLER_PER_ACCOUNT})`;
    const monthsBack = (base: string, extra = "") =>
      `strftime('%Y-%m-%dT%H:%M:%fZ', '${base}', printf('-%d months', ${month})${extra})`;
    await db
      .prepare(
        `INSERT INTO statements (${STATEMENT_COLUMNS}) ${seriesSql(from, count)}` +
          `SELECT printf('${prefix}st_%07d', n), ` +
          `printf('${prefix}acc_%05d', n / ${FILLER_PER_ACCOUNT}), ` +
          `${monthsBack("2026-10-01")}, ${monthsBack("2026-11-01", ", '-1 seconds'")}, ` +
          `${monthsBack("2026-11-26")}, ` +
          "'USD', 10000 + n % 977, 2500, 9000, 4000, -3000, 0, -200, 150, 50, 0, NULL, " +
          `${CREATED} FROM seq`,
      )
      .run();
  }
}

/** A partner request to the bench partner's service with `key`; its JSON answer. */
async function partnerApi(
  server: BenchServer,
  key: string,
  method: string,
  route: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(new URL(route, server.url("api")), {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

async function programmeKey(server: BenchServer, pci: boolean): Promise<string> {
  const scopes = [
    "ORDER_READ",
    "ORDER_WRITE",
    "TRANSACTION_INTENT_READ",
    "TRANSACTION_INTENT_WRITE",
  ];
  const res = await operator(server, "api", "POST", `/partners/${PARTNER}/keys`, {
    environment: "sandbox",
    scopes: pci ? [...scopes, "PCI_DETAILS_READ"] : scopes,
  });
  return ((await res.json()) as { api_key: string }).api_key;
}

const ORDER_COLUMNS =
  "partner_id, environment, merchant_key, customer_id, payment_method_id, currency, " +
  "total_amount, rewards_amount, merchant, lines, created_at, updated_at";
const INTENT_COLUMNS =
  "partner_id, environment, merchant_key, customer_id, payment_method_id, amount, currency, " +
  "status, network_transaction_id, partner_transaction_id, expected_date, merchant, metadata, " +
  "created_at, updated_at";

/**
 * The card programme of the bench's customer (large database): PROGRAMME_ROWS cards through the
 * operator import (encrypted as every card is), and one order and one intent through the API,
 * copied with SQL into PROGRAMME_ROWS of each and the two order event pools.
 */
async function seedCardProgramme(server: BenchServer, db: D1): Promise<CardProgramme> {
  const cards = Array.from({ length: PROGRAMME_ROWS }, (_, n) => {
    const body = `424242${String(n).padStart(9, "0")}`;
    const pan = `${body}${luhnCheckDigit(body)}`;
    return {
      payment_method_id: `pm_bench_${String(n).padStart(5, "0")}`,
      customer_id: CUSTOMER,
      account_id: MAIN_ACCOUNT,
      type: "CARD",
      status: "ACTIVE",
      card: {
        network: "VISA",
        card_type: "VIRTUAL",
        last4: pan.slice(-4),
        expiration_month: 12,
        expiration_year: 2030,
        pan,
        cvv: "123",
      },
    };
  });
  await operator(server, "api", "POST", "/import", { payment_methods: cards });
  const key = await programmeKey(server, false);
  const pciKey = await programmeKey(server, true);
  const order = await partnerApi(server, key, "POST", "/v2/orders", {
    partner_order_id: "bench_template",
    customer_id: CUSTOMER,
    currency: "USD",
    total_amount: 1_000_000_000,
    merchant: { name: "Bench Store", category_code: "5411" },
    lines: [{ name: "Bench basket", quantity: 1, unit_amount: 1_000_000_000 }],
  });
  const intent = await partnerApi(server, key, "POST", "/v2/transaction_intents", {
    customer_id: CUSTOMER,
    amount: 4_200,
    currency: "USD",
    payment_method_id: cards[0]?.payment_method_id,
  });
  const copyOrders = (prefix: string, count: number) =>
    db
      .prepare(
        `INSERT INTO orders (order_id, partner_order_id, captured_amount, refunded_amount, ` +
          `${ORDER_COLUMNS}) ${seriesSql(0, count)}SELECT printf('${prefix}%05d', n), ` +
          `printf('${prefix}%05d', n), 0, 0, ${ORDER_COLUMNS} FROM seq, orders ` +
          "WHERE order_id = ?1",
      )
      .bind(order.order_id)
      .run();
  await copyOrders("ord_bench_list_", PROGRAMME_ROWS);
  await copyOrders("ord_bench_service_", EVENT_POOL_ORDERS);
  await copyOrders("ord_bench_floor_", EVENT_POOL_ORDERS);
  await db
    .prepare(
      `INSERT INTO transaction_intents (intent_id, ${INTENT_COLUMNS}) ${seriesSql(0, PROGRAMME_ROWS)}` +
        `SELECT printf('tin_bench_%05d', n), ${INTENT_COLUMNS} FROM seq, transaction_intents ` +
        "WHERE intent_id = ?1",
    )
    .bind(intent.intent_id)
    .run();
  return { key, pciKey, card: cards[0]?.payment_method_id ?? "" };
}

async function countStatements(db: D1): Promise<number> {
  const row = await db.prepare("SELECT count(*) AS n FROM statements").first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * Builds both databases from empty (the server must be running over a cleared state directory)
 * and records the dataset in `file`.
 */
export async function buildDataset(
  server: BenchServer,
  file: string,
  progress: (message: string) => void,
): Promise<Dataset> {
  const large = await server.database("api");
  const small = await server.database("api-small");
  for (const worker of ["api", "api-small"]) await migrateService(server, worker);

  progress("small table: partner, keys and PDFs through the operator API");
  const smallKey = await seedPartner(server, "api-small", false);
  await insertFiller(server, "api-small", "s_", SMALL_TOTAL - MAIN_STATEMENTS);

  progress("large table: partner, keys and PDFs through the operator API");
  const largeKey = await seedPartner(server, "api", true);
  progress(`large table: ${DEEP_STATEMENTS.toLocaleString("en")} statements in one account`);
  await insertDeepAccount(large);
  progress("large table: line items (about 1,000,000, 5,200 in one statement)");
  await insertLineItems(large);
  progress("large table: filler tenants");
  await insertFiller(server, "api", "l_", LARGE_TOTAL - MAIN_STATEMENTS - DEEP_STATEMENTS);

  const counts = { large: await countStatements(large), small: await countStatements(small) };
  if (counts.large !== LARGE_TOTAL || counts.small !== SMALL_TOTAL) {
    throw new Error(`unexpected statement counts ${JSON.stringify(counts)}`);
  }
  progress("large database: a partner alike on the second shard, and another on the first");
  const shard01Key = await seedPartner(server, "api", false, ON_SHARD_01);
  const besideKey = await seedPartner(server, "api", false, BESIDE_ON_00);
  progress(
    `large database: the bench customer's cards, orders and intents ` +
      `(${PROGRAMME_ROWS} each, and ${EVENT_POOL_ORDERS.toLocaleString("en")} orders per event pool)`,
  );
  const programme = await seedCardProgramme(server, large);
  const dataset: Dataset = {
    stamp: await dataStamp(),
    keys: { large: largeKey, small: smallKey, shard01: shard01Key, beside: besideKey },
    programme,
  };
  await writeFile(file, `${JSON.stringify(dataset, null, 2)}\n`);
  return dataset;
}
