// A partner's jurisdiction as the operator sets and sees it: fixed by its import item (`none`
// unless given), shown by the operator's partner read and the dashboard's settings page, never
// changed; placement only onto shards of that jurisdiction, an import never mixing two, and a
// move never leaving it.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { shardJurisdiction } from "../../src/db/shards";
import { JURISDICTIONS } from "../../src/domain/jurisdiction";
import { type ErrorBody, expectJson, operator } from "../support/api";
import { seedTeam } from "../support/dashboard";
import { type ImportPayload, importData, newAccountImport, uniqueId } from "../support/fixtures";
import { SHARDS, shardDatabase, shardOf } from "../support/shards";
import { request } from "../support/worker";

/** The shards of the test run with jurisdiction `jurisdiction`. */
const shardsOf = (jurisdiction: string) =>
  SHARDS.filter((shard) => shardJurisdiction(env, shard) === jurisdiction);

const EU = shardsOf("eu");
const NONE = shardsOf("none");

const partnerIdOf = (payload: ImportPayload) => payload.partners?.[0]?.partner_id as string;

async function partner(partnerId: string) {
  const res = await operator("GET", `/partners/${partnerId}`);
  return expectJson<{ partner_id: string; shard: string; jurisdiction: string }>(res, 200);
}

async function refusal(payload: unknown, status: number): Promise<ErrorBody["error"]> {
  return (await expectJson<ErrorBody>(await operator("POST", "/import", payload), status)).error;
}

/** Whether any shard, or the directory, knows the partner. */
async function anywhere(partnerId: string): Promise<boolean> {
  for (const shard of SHARDS) {
    const row = await shardDatabase(shard)
      .prepare("SELECT 1 AS found FROM partners WHERE partner_id = ?")
      .bind(partnerId)
      .first();
    if (row) return true;
  }
  const listed = await env.DIRECTORY.prepare("SELECT 1 FROM partner_shards WHERE partner_id = ?")
    .bind(partnerId)
    .first();
  return listed !== null;
}

describe("the local shards", () => {
  it("keep DB_00 and DB_01 without a jurisdiction, and DB_02 (and the test's DB_03) in eu", () => {
    expect(NONE).toEqual(["00", "01"]);
    expect(EU).toEqual(["02", "03"]);
  });

  it("are declared as a map, or its JSON; a shard it does not name has none", () => {
    const text = { SHARD_JURISDICTIONS: '{"00":"none","05":"fedramp"}' };
    expect(shardJurisdiction(text, "05")).toBe("fedramp");
    expect(shardJurisdiction(text, "07")).toBe("none");
    expect(shardJurisdiction({ SHARD_JURISDICTIONS: { "05": "us" } }, "05")).toBe("us");
    expect(shardJurisdiction({}, "02")).toBe("none");
  });

  it("refuse a declaration that is not a map of shard codes to jurisdictions, naming the fault", () => {
    const cases: [unknown, string][] = [
      ["{not json", "not JSON"],
      [["02"], "not a map"],
      [{ "02": "EU" }, 'shard 02 has "EU"'],
      [{ DB_02: "eu" }, "DB_02 is not a shard code"],
    ];
    for (const [declared, fault] of cases) {
      expect(() => shardJurisdiction({ SHARD_JURISDICTIONS: declared }, "02")).toThrow(fault);
    }
  });
});

describe("a partner's jurisdiction", () => {
  it("is none unless its import says otherwise, and the operator's read shows it", async () => {
    const { payload } = newAccountImport();
    await importData(payload);
    const read = await partner(partnerIdOf(payload));
    expect(read.jurisdiction).toBe("none");
    expect(NONE).toContain(read.shard);
  });

  it("places an eu partner on an eu shard, with everything it owns", async () => {
    const { ids, payload } = newAccountImport({ jurisdiction: "eu", statements: 2 });
    await importData(payload);
    const read = await partner(ids.partnerId);
    expect(read.jurisdiction).toBe("eu");
    expect(EU).toContain(read.shard);
    const rows = await shardDatabase(read.shard)
      .prepare("SELECT count(*) AS n FROM statements WHERE account_id = ?")
      .bind(ids.accountId)
      .first<{ n: number }>();
    expect(rows?.n).toBe(2);
  });

  it("places an eu partner on the eu shard its import names", async () => {
    for (const shard of EU) {
      const { ids, payload } = newAccountImport({ shard, jurisdiction: "eu" });
      await importData(payload);
      expect(await partner(ids.partnerId)).toMatchObject({ shard, jurisdiction: "eu" });
    }
  });

  it("refuses a jurisdiction no shard has, naming it, and writes nothing", async () => {
    for (const jurisdiction of JURISDICTIONS.filter((j) => shardsOf(j).length === 0)) {
      const { ids, payload } = newAccountImport({ jurisdiction });
      const error = await refusal(payload, 400);
      expect(error.type).toBe("INVALID_REQUEST_ERROR");
      expect(error.message).toContain(`no shard of jurisdiction "${jurisdiction}"`);
      expect(error.message).toContain(JSON.stringify(ids.partnerId));
      expect(error.message).toContain("02 (eu)");
      expect(await anywhere(ids.partnerId)).toBe(false);
    }
  });

  it("refuses a shard of another jurisdiction than the partner's, both ways", async () => {
    const cases = [
      { shard: EU[0] as string, jurisdiction: "none" as const, other: "eu" },
      { shard: NONE[0] as string, jurisdiction: "eu" as const, other: "none" },
    ];
    for (const { shard, jurisdiction, other } of cases) {
      const { ids, payload } = newAccountImport({ shard, jurisdiction });
      const error = await refusal(payload, 400);
      expect(error.message).toContain(
        `partners[0] ("${ids.partnerId}").shard: shard ${shard}'s jurisdiction is "${other}" ` +
          `and partner "${ids.partnerId}"'s is "${jurisdiction}"`,
      );
      expect(await anywhere(ids.partnerId)).toBe(false);
    }
  });

  it("refuses an import whose partners need shards of different jurisdictions, naming each", async () => {
    const eu = newAccountImport({ jurisdiction: "eu" });
    const none = newAccountImport();
    const both: ImportPayload = {
      partners: [...(eu.payload.partners ?? []), ...(none.payload.partners ?? [])],
      customers: [...(eu.payload.customers ?? []), ...(none.payload.customers ?? [])],
    };
    const error = await refusal(both, 400);
    expect(error.message).toContain("need shards of different jurisdictions");
    expect(error.message).toContain(`"${eu.ids.partnerId}" (eu)`);
    expect(error.message).toContain(`"${none.ids.partnerId}" (none)`);
    expect(await anywhere(eu.ids.partnerId)).toBe(false);
    expect(await anywhere(none.ids.partnerId)).toBe(false);

    // An existing eu partner's customer beside a new partner without one: the same refusal.
    await importData(eu.payload);
    const later = newAccountImport();
    const mixed: ImportPayload = {
      partners: later.payload.partners,
      customers: [
        {
          customer_id: uniqueId("cus"),
          partner_id: eu.ids.partnerId,
          environment: "sandbox",
          merchant_key: eu.ids.merchantKey,
        },
      ],
    };
    const again = await refusal(mixed, 400);
    expect(again.message).toContain(`"${eu.ids.partnerId}" (eu)`);
    expect(again.message).toContain(`"${later.ids.partnerId}" (none)`);
  });

  it("never changes: a re-import naming another is refused, one naming none keeps it", async () => {
    const { ids, payload } = newAccountImport({ jurisdiction: "eu" });
    await importData(payload);
    const item = payload.partners?.[0] as NonNullable<ImportPayload["partners"]>[number];
    const error = await refusal({ partners: [{ ...item, jurisdiction: "none" }] }, 400);
    expect(error.message).toBe(
      `partners[0] ("${ids.partnerId}").jurisdiction: partner "${ids.partnerId}" is "eu": a ` +
        "partner's jurisdiction is set when it is created and never changes",
    );
    const { jurisdiction: _, ...unnamed } = item;
    await importData({ partners: [{ ...unnamed, name: "Renamed" }] });
    await importData({ partners: [{ ...item, name: "Renamed again" }] });
    expect((await partner(ids.partnerId)).jurisdiction).toBe("eu");
  });

  it("is refused by the database itself if anything tries to change it", async () => {
    const { ids, payload } = newAccountImport({ jurisdiction: "eu" });
    await importData(payload);
    const db = shardDatabase(await shardOf(ids.partnerId));
    await expect(
      db
        .prepare("UPDATE partners SET jurisdiction = 'none' WHERE partner_id = ?")
        .bind(ids.partnerId)
        .run(),
    ).rejects.toThrow(/partner_jurisdiction_fixed/);
    // Its other columns still change.
    await db
      .prepare("UPDATE partners SET name = 'Still eu' WHERE partner_id = ?")
      .bind(ids.partnerId)
      .run();
    expect((await partner(ids.partnerId)).jurisdiction).toBe("eu");
  });

  it("must be one the service knows", async () => {
    const { payload } = newAccountImport();
    const item = payload.partners?.[0];
    const error = await refusal({ partners: [{ ...item, jurisdiction: "EU" }] }, 400);
    expect(error.message).toMatch(/^partners\[0\] \("[^"]+"\)\.jurisdiction: /);
    for (const j of JURISDICTIONS) expect(error.message).toContain(j);
  });
});

describe("moving a partner", () => {
  it("never crosses jurisdictions: 409 both ways, nothing started", async () => {
    const eu = newAccountImport({ jurisdiction: "eu", statements: 1 });
    const none = newAccountImport({ statements: 1 });
    await importData(eu.payload);
    await importData(none.payload);
    const cases = [
      {
        partnerId: eu.ids.partnerId,
        to: NONE[0] as string,
        words: `${eu.ids.partnerId}'s jurisdiction is "eu" and shard ${NONE[0]}'s is "none"`,
      },
      {
        partnerId: none.ids.partnerId,
        to: EU[0] as string,
        words: `${none.ids.partnerId}'s jurisdiction is "none" and shard ${EU[0]}'s is "eu"`,
      },
    ];
    for (const { partnerId, to, words } of cases) {
      const before = await shardOf(partnerId);
      const res = await operator("POST", `/partners/${partnerId}/move`, { shard: to });
      const error = (await expectJson<ErrorBody>(res, 409)).error;
      expect(error.type).toBe("CONFLICT_ERROR");
      expect(error.message).toContain(words);
      expect(error.message).toContain("a move never crosses jurisdictions");
      expect(await shardOf(partnerId)).toBe(before);
      expect((await operator("GET", `/partners/${partnerId}/move`)).status).toBe(404);
    }
  });
});

describe("the dashboard's settings page", () => {
  it("shows the partner's id and jurisdiction to every signed-in user", async () => {
    const { ids, payload } = newAccountImport({ jurisdiction: "eu" });
    await importData(payload);
    const team = await seedTeam(ids.partnerId);
    for (const user of [team.admin, team.developer]) {
      const res = await user.get("/dashboard/settings");
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain(ids.partnerId);
      expect(html).toContain("<code>eu</code> (the European Union)");
      expect(html).toContain("stored only in the European Union");
    }
    const plain = await seedTeam();
    const html = await (await plain.developer.get("/dashboard/settings")).text();
    expect(html).toContain("<code>none</code>");
    expect(html).toContain("Your account has no jurisdiction");
  });

  it("sends a visitor without a session to sign in", async () => {
    const answer = await request("/dashboard/settings", { redirect: "manual" });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/dashboard/sign-in");
  });
});
