// The dashboard's Overview: 30 days of requests by status class (a chart, and the table a screen
// reader reads), errors grouped by type and route, the versions each key sends with their
// deprecation and sunset dates, and a call to action while a key sends a deprecated version.
import { describe, expect, it } from "vitest";
import { bundleOf } from "../../src/bundle";
import { VERSIONS } from "../../versions";
import { api } from "../support/api";
import { appServing } from "../support/apps";
import { OLDEST } from "../support/bundle-versions";
import { seedTeam } from "../support/dashboard";
import { createKey } from "../support/fixtures";
import { deliverRecords, loggedRequest, logRecord, requestIdOf } from "../support/request-logs";

const DAY = 86_400_000;
const dayOf = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString().slice(0, 10);

/** The screen reader's table of the chart: day → its cells (2xx, 4xx, 5xx, all). */
function chartTable(html: string): Map<string, number[]> {
  const table = /<table class="visually-hidden"><caption>Requests per day[\s\S]*?<\/table>/.exec(
    html,
  )?.[0];
  if (!table) throw new Error("no table of the chart");
  const rows = new Map<string, number[]>();
  for (const row of table.matchAll(/<th scope="row">([^<]+)<\/th>((?:<td>\d+<\/td>)+)/g)) {
    rows.set(
      row[1] as string,
      [...(row[2] as string).matchAll(/<td>(\d+)<\/td>/g)].map((m) => Number(m[1])),
    );
  }
  return rows;
}

/** The rows of the table after the heading `heading`, as text cells. */
function tableAfter(html: string, heading: string): string[][] {
  const start = html.indexOf(`<h2>${heading}</h2>`);
  const table = /<tbody>([\s\S]*?)<\/tbody>/.exec(html.slice(start))?.[1] ?? "";
  return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] as string).matchAll(/<td>([\s\S]*?)<\/td>/g)].map((cell) =>
      (cell[1] as string).replace(/<[^>]+>/g, "").trim(),
    ),
  );
}

describe("the Overview", () => {
  it("counts 30 days of requests by status class, as a chart and as its table", async () => {
    const team = await seedTeam();
    const at = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY);
    const errorOn = (route: string, status: number, errorType: string) => ({
      route,
      status,
      error_type: errorType,
    });
    await deliverRecords([
      ...[0, 0, 0].map(() => logRecord(team.partnerId, at(0))),
      ...[3, 3].map(() =>
        logRecord(
          team.partnerId,
          at(3),
          errorOn("/v2/customers/:customer_id", 404, "CUSTOMER_NOT_FOUND_ERROR"),
        ),
      ),
      logRecord(team.partnerId, at(3), { method: "POST", route: "/v2/keys", status: 201 }),
      logRecord(team.partnerId, at(10), errorOn("/v2/keys", 500, "INTERNAL_ERROR")),
      ...[40, 40].map(() => logRecord(team.partnerId, at(40))),
      logRecord(team.partnerId, at(1), { environment: "production" }),
    ]);
    const res = await team.developer.get("/dashboard/sandbox");
    const html = await res.text();
    expect(res.status, html).toBe(200);
    const table = chartTable(html);
    expect(table.size).toBe(30);
    expect(table.get(dayOf(0))).toEqual([3, 0, 0, 3]);
    expect(table.get(dayOf(3))).toEqual([1, 2, 0, 3]);
    expect(table.get(dayOf(10))).toEqual([0, 0, 1, 1]);
    expect(table.get(dayOf(1))).toEqual([0, 0, 0, 0]);
    expect(table.has(dayOf(40))).toBe(false);
    expect(html).toContain("7 requests in the last 30 days, 3 of them errors.");
    // The date labels are a week apart, counted back from today: today always has one, and no two
    // print over each other.
    const labels = [
      ...html.matchAll(/<text class="tick" x="[\d.]+" y="194" text-anchor="middle">([\d-]+)</g),
    ];
    expect(labels.map((label) => label[1])).toEqual(
      [28, 21, 14, 7, 0].map((daysAgo) => dayOf(daysAgo).slice(5)),
    );
    expect(html).toMatch(/<svg[^>]*aria-hidden="true"/);
    expect(html).toContain('class="bar bar-4xx"');

    // Errors by type and route, the most frequent first, each a link to its requests.
    expect(tableAfter(html, "Errors by type and route")).toEqual([
      ["CUSTOMER_NOT_FOUND_ERROR", "/v2/customers/:customer_id", "2", dayOf(3)],
      ["INTERNAL_ERROR", "/v2/keys", "1", dayOf(10)],
    ]);
    expect(html).toContain(
      'href="/dashboard/sandbox/logs?status=4xx&amp;route=%2Fv2%2Fcustomers%2F%3Acustomer_id"',
    );

    // Production's one request reads as one.
    const production = await (await team.developer.get("/dashboard/production")).text();
    expect(production).toContain("1 request in the last 30 days, 0 of them errors.");
  });

  it("lists the versions each key sends, and how each was chosen", async () => {
    const team = await seedTeam();
    const key = await createKey(team.partnerId, "sandbox", ["ACCOUNT_READ"]);
    const saved = await api("/v2/customers", { key: key.apiKey });
    const header = await api("/v2/customers", { key: key.apiKey, version: "latest" });
    await Promise.all([saved, header].map((res) => loggedRequest(requestIdOf(res))));
    const html = await (await team.admin.get("/dashboard/sandbox")).text();
    const rows = tableAfter(html, "Versions in use").map(([k, version, chosen, requests]) => [
      k,
      version,
      chosen,
      requests,
    ]);
    const savedVersion = saved.headers.get("x-service-version") as string;
    expect(rows).toEqual(
      [
        [key.keyId, "latest", "Version header", "1"],
        [key.keyId, savedVersion, "Saved version", "1"],
      ].sort((a, b) => ((a[1] as string) < (b[1] as string) ? 1 : -1)),
    );
    expect(html).not.toContain("Action needed");
  });

  it("calls for action while a key sends a deprecated version, with its dates", async () => {
    const team = await seedTeam();
    const target = VERSIONS.find((v) => v.id === OLDEST) as (typeof VERSIONS)[number];
    const deprecated = { date: "2026-06-01", sunset: "2027-06-01" };
    const fetch = appServing(
      bundleOf(VERSIONS.map((v) => (v === target ? { ...v, deprecated } : v))),
    );
    await deliverRecords([
      logRecord(team.partnerId, new Date(), {
        key_id: "key_by_header",
        version: OLDEST,
        version_source: "header",
      }),
      logRecord(team.partnerId, new Date(), {
        key_id: "key_by_saved",
        version: OLDEST,
        version_source: "saved",
      }),
      logRecord(team.partnerId, new Date(), { key_id: "key_retired", version: "2020-01-01" }),
    ]);
    const html = await (await team.admin.through(fetch).get("/dashboard/sandbox")).text();
    const callout = /<section class="callout"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
    expect(callout).toContain("Action needed");
    const items = [...callout.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1] as string);
    const about = (keyId: string) => items.find((item) => item.includes(keyId)) ?? "";
    expect(about("key_by_header")).toContain(`deprecated since 2026-06-01, sunset 2027-06-01`);
    expect(about("key_by_header")).toContain("Change the version header your integration sends.");
    expect(about("key_by_saved")).toContain('href="/dashboard/sandbox/version"');
    expect(about("key_retired")).toContain("no longer served");
    const versions = tableAfter(html, "Versions in use");
    expect(versions.find((row) => row[0]?.includes("key_by_saved"))?.slice(5)).toEqual([
      "2026-06-01",
      "2027-06-01",
    ]);
    // The service's own bundle deprecates nothing: only the retired version is called out there.
    const own = await (await team.admin.get("/dashboard/sandbox")).text();
    const ownCallout = /<section class="callout"[\s\S]*?<\/section>/.exec(own)?.[0] ?? "";
    expect(ownCallout).toContain("key_retired");
    expect(ownCallout).not.toContain("key_by_header");
    expect(ownCallout).not.toContain("key_by_saved");
  });
});
