// The request log's reads are served by indexes: every filter of the dashboard's log (alone and
// combined) is one range of an index ending in `log_id`, read in order (no sort, no table scan,
// no OFFSET), a request id is one index lookup, the Overview reads a range of the daily counts'
// primary key, and the purge walks `log_id` and `day`. SQLite's own plans (EXPLAIN QUERY PLAN)
// say so; they are printed for the record.
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client";
import {
  type LogFilters,
  logPageQuery,
  PURGE_DAYS,
  PURGE_LOGS,
  requestsByIdQuery,
  usageQueries,
} from "../../src/request-logs/log-store";
import { SHARDS, shardDatabase } from "../support/shards";

const binding = shardDatabase(SHARDS[0] as string);
const db = openDatabase(binding).db;
const scope = { partnerId: "partner_plan", environment: "sandbox" as const };

/** SQLite's plan of a query, one line per step. */
async function planOf(query: { sql: string; params: unknown[] }): Promise<string[]> {
  const { results } = await binding
    .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
    .bind(...query.params)
    .all<{ detail: string }>();
  return results.map((r) => r.detail);
}

const FILTERS: [string, LogFilters][] = [
  ["none", {}],
  ["status", { statusClass: 4 }],
  ["route", { route: "/v2/customers" }],
  ["method", { method: "POST" }],
  ["key", { keyId: "key_1" }],
  ["version", { version: "2025-05-05" }],
  ["no version", { version: null }],
  ["time range", { from: new Date("2026-11-01T00:00:00Z"), to: new Date("2026-11-02T00:00:00Z") }],
  ["status and route", { statusClass: 5, route: "/v2/keys" }],
  ["key, version and time", { keyId: "key_1", version: "latest", from: new Date(0) }],
  [
    "every filter",
    {
      statusClass: 2,
      route: "/v2/customers",
      method: "GET",
      keyId: "key_1",
      version: "latest",
      from: new Date(0),
      to: new Date(),
    },
  ],
];

describe("the request log's query plans", () => {
  for (const [name, filters] of FILTERS) {
    for (const before of [null, "00VcAAAAAAAAAAAAAAAAAAAAA"]) {
      it(`pages by an index with the filter: ${name}${before ? ", deep" : ""}`, async () => {
        const plan = await planOf(logPageQuery(scope, filters, before, 50));
        console.log(`request log, ${name}${before ? ", deep" : ""}: ${plan.join(" | ")}`);
        expect(plan).toHaveLength(1);
        expect(plan[0]).toMatch(
          /^SEARCH request_logs USING (COVERING )?INDEX request_logs_\w+_idx \(partner_id=\? AND environment=\?/,
        );
        expect(plan.join(" ")).not.toContain("TEMP B-TREE");
      });
    }
  }

  it("finds a request by its id through its index", async () => {
    const plan = await planOf(requestsByIdQuery(scope, "req-1"));
    console.log(`request by id: ${plan.join(" | ")}`);
    expect(plan[0]).toBe(
      "SEARCH request_logs USING INDEX request_logs_request_idx (partner_id=? AND environment=? AND request_id=?)",
    );
  });

  it("reads the Overview's 30 days as one range of the daily counts' primary key", async () => {
    for (const query of usageQueries(db, scope, "2026-10-28")) {
      const plan = await planOf(query.toSQL());
      console.log(`overview: ${plan.join(" | ")}`);
      expect(plan[0]).toMatch(
        /^SEARCH request_log_days USING (COVERING )?INDEX sqlite_autoindex_request_log_days_1 \(partner_id=\? AND environment=\? AND day>\?\)/,
      );
      expect(plan.join(" ")).not.toMatch(/SCAN request_log_days/);
    }
  });

  it("purges by log id and by day", async () => {
    const logs = await planOf({ sql: PURGE_LOGS, params: ["00Vc", 1000] });
    const days = await planOf({ sql: PURGE_DAYS, params: ["2026-10-27", 500] });
    console.log(`purge: ${logs.join(" | ")}; ${days.join(" | ")}`);
    // Oldest first by the key (a partner frozen by a move is passed over: its row is read for its
    // partner id, and the fence's few rows are scanned once).
    expect(logs.join(" ")).toMatch(
      /USING (COVERING )?INDEX sqlite_autoindex_request_logs_1 \(log_id<\?\)/,
    );
    expect(days.join(" ")).toMatch(/USING (COVERING )?INDEX request_log_days_day_idx \(day<\?\)/);
    expect(`${logs.join(" ")} ${days.join(" ")}`).not.toMatch(/SCAN request_log/);
  });
});
