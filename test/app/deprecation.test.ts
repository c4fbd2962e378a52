// Deprecation and sunset of a version: the headers of its responses (RFC 9745, RFC 8594), the
// changelog and reference saying so, and what the operator sees: who still saves the version,
// and how many requests each version served, counted without a D1 write per request.
import { afterEach, describe, expect, it, vi } from "vitest";
import { bundleOf } from "../../src/bundle";
import { VERSIONS } from "../../versions";
import { api, expectJson } from "../support/api";
import { appServing } from "../support/apps";
import { importData, seedAccount, statementsPath, uniqueId } from "../support/fixtures";
import type { Json } from "../support/json";
import { OPERATOR_TOKEN, request } from "../support/worker";

const released = VERSIONS.filter((v) => v.released);
// The oldest version, deprecated: test partners save it (seedAccount), so it is the one in use.
const target = released.at(-1) as (typeof VERSIONS)[number];
const deprecated = { date: "2026-06-01", sunset: "2027-06-01" };
const bundle = bundleOf(VERSIONS.map((v) => (v === target ? { ...v, deprecated } : v)));
const OTHER = bundle.newestReleased;
const fetch = appServing(bundle, { flushEveryMs: 60_000 });

const operatorGet = async (path: string) =>
  expectJson<Json>(
    await request(
      `/operator/v1${path}`,
      { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } },
      fetch,
    ),
    200,
  );

afterEach(() => {
  vi.useRealTimers();
});

describe("a deprecated version", () => {
  it("marks every response served in it, successes and errors alike", async () => {
    const f = await seedAccount({ statements: 1 });
    const entry = `<http://api.test/docs/changelog#v-${target.id}>`;
    const responses = [
      await api(statementsPath(f), { key: f.key, version: target.id, fetch }),
      await api(statementsPath(f, "?limit=0"), { key: f.key, version: target.id, fetch }),
      await api("/v2/orders", { key: f.key, version: target.id, fetch }),
      await api("/v2/no-such-route", { key: f.key, version: target.id, fetch }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 400, 403, 404]);
    for (const res of responses) {
      expect(res.headers.get("deprecation")).toBe(`@${Date.UTC(2026, 5, 1) / 1000}`);
      expect(res.headers.get("sunset")).toBe("Tue, 01 Jun 2027 00:00:00 GMT");
      expect(res.headers.get("link")).toBe(
        `${entry}; rel="deprecation"; type="text/html", ${entry}; rel="sunset"; type="text/html"`,
      );
    }
  });

  it("leaves other versions, and requests refused before a version is chosen, unmarked", async () => {
    const f = await seedAccount({ statements: 1 });
    const other = await api(statementsPath(f), { key: f.key, version: OTHER, fetch });
    const unauthenticated = await api(statementsPath(f), { fetch });
    for (const res of [other, unauthenticated]) {
      expect(res.headers.get("deprecation")).toBeNull();
      expect(res.headers.get("sunset")).toBeNull();
      expect(res.headers.get("link")).toBeNull();
    }
  });

  it("is deprecated in the changelog, its page, its reference and its docs", async () => {
    const { versions } = await expectJson<Json>(await request("/changelog", {}, fetch), 200);
    expect(versions.find((v: Json) => v.version === target.id)).toMatchObject({
      deprecated: "2026-06-01",
      sunset: "2027-06-01",
    });
    expect(versions.find((v: Json) => v.version === OTHER).deprecated).toBeUndefined();
    const page = await (await request("/docs/changelog", {}, fetch)).text();
    expect(page).toContain("Deprecated since 2026-06-01");
    expect(page).toContain("sunset on 2027-06-01");
    const doc = await expectJson<Json>(await request(`/openapi/${target.id}.json`, {}, fetch), 200);
    expect(doc.info.description).toContain("**Deprecated** since 2026-06-01");
    expect(Object.keys(doc.components.headers)).toEqual(
      expect.arrayContaining(["Deprecation", "Sunset", "Link"]),
    );
    const docs = await (await request(`/docs?version=${target.id}`, {}, fetch)).text();
    expect(docs).toContain("<strong>Deprecated</strong> since 2026-06-01");
  });
});

describe("the operator's view of versions", () => {
  it("lists the partners and environments whose saved version is deprecated", async () => {
    const f = await seedAccount();
    const current = uniqueId("partner");
    await importData({
      partners: [
        {
          partner_id: current,
          name: "Current",
          saved_versions: { sandbox: target.id, production: OTHER },
        },
      ],
    });
    const { data } = await operatorGet("/deprecated-saved-versions");
    const rows = (id: string) => data.filter((row: Json) => row.partner_id === id);
    expect(rows(f.partnerId)).toEqual(
      ["sandbox", "production"].map((environment) => ({
        partner_id: f.partnerId,
        environment,
        version: target.id,
        deprecated: "2026-06-01",
        sunset: "2027-06-01",
      })),
    );
    expect(rows(current).map((row: Json) => row.environment)).toEqual(["sandbox"]);
  });

  it("counts requests per version, written at most once a minute per isolate", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    // A fresh isolate's counters, for this test alone.
    const fetch = appServing(bundle, { flushEveryMs: 60_000 });
    const operatorGet = async (path: string) =>
      expectJson<Json>(
        await request(
          `/operator/v1${path}`,
          { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } },
          fetch,
        ),
        200,
      );
    const start = new Date("2026-11-20T10:00:00.000Z");
    vi.setSystemTime(start);
    const f = await seedAccount({ statements: 1 });
    const usage = async () => {
      const body = await operatorGet("/version-usage");
      return Object.fromEntries(
        body.versions.map((v: Json) => [
          v.version,
          v.partners.find((p: Json) => p.partner_id === f.partnerId)?.requests ?? 0,
        ]),
      );
    };
    for (let i = 0; i < 3; i++)
      await api(statementsPath(f), { key: f.key, version: target.id, fetch });
    await api(statementsPath(f), { key: f.key, version: OTHER, fetch });
    // Counted in memory only: nothing written yet.
    expect((await usage())[target.id]).toBe(0);

    vi.setSystemTime(start.getTime() + 61_000);
    await api(statementsPath(f), { key: f.key, version: target.id, fetch });
    const counted = await usage();
    expect(counted[target.id]).toBe(4);
    expect(counted[OTHER]).toBe(1);
    const body = await operatorGet("/version-usage");
    expect(body.days).toBe(30);
    expect(body.versions.find((v: Json) => v.version === target.id)).toMatchObject({
      deprecated: "2026-06-01",
      sunset: "2027-06-01",
      in_bundle: true,
    });

    // Thirty days later those requests are out of the window.
    vi.setSystemTime(start.getTime() + 31 * 86_400_000);
    expect((await usage())[target.id]).toBe(0);
  });

  it("refuses a window it does not keep", async () => {
    for (const days of ["0", "91", "x", "1.5"]) {
      const res = await request(
        `/operator/v1/version-usage?days=${days}`,
        { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } },
        fetch,
      );
      const body = await expectJson<Json>(res, 400);
      expect(body.error.param).toBe("days");
    }
  });
});
