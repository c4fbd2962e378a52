// The dashboard's request log: an environment's requests newest first, filtered by status class,
// route, method, key, version and time through query parameters (a filtered view is a link),
// paged by keyset without a duplicate or a gap, a request found by its x-request-id and shown in
// full; nothing of another partner's or environment's.
import { beforeAll, describe, expect, it } from "vitest";
import type { RequestLogRecord } from "../../src/domain/request-log";
import { api } from "../support/api";
import { NEWEST_RELEASED } from "../support/bundle-versions";
import { seedTeam, type Team } from "../support/dashboard";
import { createKey, uniqueId } from "../support/fixtures";
import {
  allLogged,
  deliverRecords,
  logRecord,
  newRequestId,
  requestIdOf,
} from "../support/request-logs";

/** The request ids a log page links to, in its order. */
function listedIds(html: string, environment = "sandbox"): string[] {
  const pattern = new RegExp(`href="/dashboard/${environment}/logs/([^"?]+)"`, "g");
  return [...html.matchAll(pattern)].map((m) => decodeURIComponent(m[1] as string));
}

/** The link to the next (older) page, if the page has one. */
function olderLink(html: string): string | null {
  const match = /<a href="([^"]+)">Older requests<\/a>/.exec(html);
  return match ? (match[1] as string).replaceAll("&amp;", "&") : null;
}

async function page(team: Team, path: string, status = 200): Promise<string> {
  const res = await team.developer.get(path);
  const html = await res.text();
  expect(res.status, html).toBe(status);
  return html;
}

describe("the request log of real requests", () => {
  let team: Team;
  let key: { apiKey: string; keyId: string };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    team = await seedTeam();
    key = await createKey(team.partnerId, "sandbox", ["ACCOUNT_READ"]);
    const send = async (name: string, path: string, options: Parameters<typeof api>[1] = {}) => {
      const res = await api(path, {
        key: key.apiKey,
        ...options,
        headers: { "x-request-id": newRequestId(), ...options.headers },
      });
      ids[name] = requestIdOf(res);
    };
    // In order, a moment apart, so that their log ids sort as they were sent.
    await send("list", "/v2/customers");
    await send("missing", "/v2/customers/cus_nobody");
    await send("create", "/v2/keys", { method: "POST", body: { name: "from the log test" } });
    await send("latest", "/v2/customers", { version: "latest" });
    await send("refused", "/v2/customers", { version: "1999-01-01" });
    await allLogged(Object.values(ids));
  }, 60_000);

  it("lists the environment's requests, newest first", async () => {
    const html = await page(team, "/dashboard/sandbox/logs");
    expect(listedIds(html)).toEqual(
      [ids.refused, ids.latest, ids.create, ids.missing, ids.list].map(String),
    );
    expect(html).toContain("CUSTOMER_NOT_FOUND_ERROR");
    expect(html).toContain(key.keyId);
  });

  it("filters by status class, route, method, key and version, each a link", async () => {
    const cases: [string, (string | undefined)[]][] = [
      ["status=4xx", [ids.refused, ids.missing]],
      ["status=2xx", [ids.latest, ids.create, ids.list]],
      ["status=5xx", []],
      ["method=POST", [ids.create]],
      ["route=/v2/customers", [ids.refused, ids.latest, ids.list]],
      ["route=/v2/customers/:customer_id", [ids.missing]],
      [`key=${key.keyId}`, [ids.refused, ids.latest, ids.create, ids.missing, ids.list]],
      ["key=key_someone_else", []],
      ["version=latest", [ids.latest]],
      ["version=none", [ids.refused]],
      [`version=${NEWEST_RELEASED}&method=GET`, [ids.missing, ids.list]],
      ["status=4xx&route=/v2/customers", [ids.refused]],
    ];
    for (const [query, expected] of cases) {
      const html = await page(team, `/dashboard/sandbox/logs?${query}`);
      expect(listedIds(html), query).toEqual(expected.map(String));
    }
  });

  it("finds one request by its x-request-id, and shows it in full", async () => {
    const found = await page(team, `/dashboard/sandbox/logs?request_id=${ids.create}`);
    expect(listedIds(found)).toEqual([ids.create]);
    const detail = await page(team, `/dashboard/sandbox/logs/${ids.create}`);
    expect(detail).toContain("POST /v2/keys");
    expect(detail).toContain("&quot;name&quot;: &quot;from the log test&quot;");
    expect(detail).toContain("Not kept: only error responses are.");
    expect(detail).toContain(key.keyId);
    const missing = await page(team, `/dashboard/sandbox/logs/${ids.missing}`);
    expect(missing).toContain("CUSTOMER_NOT_FOUND_ERROR");
    expect(missing).toContain("No such customer");
    expect(missing).toContain(`${NEWEST_RELEASED} (the saved version)`);
    const latest = await page(team, `/dashboard/sandbox/logs/${ids.latest}`);
    expect(latest).toContain("latest (from the version header)");
    const none = await page(
      team,
      `/dashboard/sandbox/logs?request_id=req-nothing-${uniqueId("x")}`,
    );
    expect(listedIds(none)).toEqual([]);
    expect(none).toContain("No request with the id");
  });

  it("shows nothing of another environment or partner", async () => {
    await page(team, `/dashboard/production/logs/${ids.create}`, 404);
    expect(listedIds(await page(team, "/dashboard/production/logs"), "production")).toEqual([]);
    const other = await seedTeam();
    const res = await other.admin.get(`/dashboard/sandbox/logs/${ids.create}`);
    expect(res.status).toBe(404);
    const theirs = await other.admin.get(`/dashboard/sandbox/logs?request_id=${ids.create}`);
    expect(listedIds(await theirs.text())).toEqual([]);
  });

  it("answers 400, naming the parameter, for a filter it cannot read", async () => {
    for (const query of [
      "status=6xx",
      "method=get",
      "from=yesterday",
      "before=nope",
      "key=a%20b",
      "version=v2",
      `route=/${"r".repeat(200)}`,
      `request_id=${"q".repeat(129)}`,
      "request_id=a%20b",
    ]) {
      const html = await page(team, `/dashboard/sandbox/logs?${query}`, 400);
      expect(html, query).toContain(query.split("=")[0] as string);
    }
  });

  it("answers 404 for a request id it cannot hold, as for one it does not", async () => {
    for (const id of ["q".repeat(129), "a%20b", "a%2Fb"]) {
      const html = await page(team, `/dashboard/sandbox/logs/${id}`, 404);
      expect(html, id).toContain("in the last 30 days");
    }
  });
});

describe("paging and time", () => {
  it("pages newest first by keyset, without a duplicate or a gap, filters kept", async () => {
    const team = await seedTeam();
    const start = Date.now() - 3_600_000;
    const records: RequestLogRecord[] = Array.from({ length: 130 }, (_, i) =>
      logRecord(team.partnerId, new Date(start + i * 1000), {
        status: i % 3 === 0 ? 404 : 200,
        error_type: i % 3 === 0 ? "CUSTOMER_NOT_FOUND_ERROR" : null,
      }),
    );
    await deliverRecords(records);
    const newestFirst = [...records].reverse();
    for (const [query, expected] of [
      ["", newestFirst],
      ["?status=4xx", newestFirst.filter((r) => r.status === 404)],
    ] as const) {
      const seen: string[] = [];
      let next: string | null = `/dashboard/sandbox/logs${query}`;
      let pages = 0;
      while (next) {
        const html = await page(team, next);
        seen.push(...listedIds(html));
        next = olderLink(html);
        if (next && query) expect(next).toContain("status=4xx");
        pages += 1;
      }
      expect(seen, query).toEqual(expected.map((r) => r.request_id));
      expect(pages).toBe(Math.ceil(expected.length / 50));
    }
  });

  it("keeps to the time range asked for, in UTC", async () => {
    const team = await seedTeam();
    const base = Date.UTC(2026, 10, 20, 12, 0, 0);
    const records = [0, 30, 60, 90].map((minutes) =>
      logRecord(team.partnerId, new Date(base + minutes * 60_000)),
    );
    await deliverRecords(records);
    const html = await page(
      team,
      "/dashboard/sandbox/logs?from=2026-11-20T12:30&to=2026-11-20T13:30",
    );
    expect(listedIds(html)).toEqual([records[2], records[1]].map((r) => r?.request_id));
    const open = await page(team, "/dashboard/sandbox/logs?from=2026-11-20T13:00:00Z");
    expect(listedIds(open)).toEqual([records[3], records[2]].map((r) => r?.request_id));
  });
});
