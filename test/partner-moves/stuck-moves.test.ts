// A move that keeps its partner frozen is shown to the operator with its age, and aborted once it
// has kept the partner frozen for 6 hours without switching, whoever steps it next (the
// five-minute maintenance or the operator), with an alert: the partner takes writes again, and the
// re-sends of its queued work stop.
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runMaintenance } from "../../src/jobs";
import { api, expectJson, operator } from "../support/api";
import { type Fixture, seedAccount } from "../support/fixtures";
import { shardDatabase } from "../support/shards";

const HOUR = 3_600_000;

interface MoveView {
  move_id: string;
  partner_id: string;
  phase: string;
  started_at: string;
  age_seconds: number;
  aborts_at: string | null;
  finished_at: string | null;
  error: string | null;
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** A partner on shard 00 whose move to 01 has started and not switched (one row copied). */
async function frozenPartner(): Promise<{ f: Fixture; move: MoveView }> {
  const f = await seedAccount({ shard: "00", statements: 3 });
  const res = await operator("POST", `/partners/${f.partnerId}/move`, { shard: "01", max_rows: 1 });
  const move = await expectJson<MoveView>(res, 202);
  expect(move.phase).toBe("copying");
  return { f, move };
}

function maintenanceAt(at: number) {
  return runMaintenance(createScheduledController({ scheduledTime: at, cron: "*/5 * * * *" }), env);
}

/** A write of the partner: a new key (503 while it is frozen). */
function write(f: Fixture) {
  return api("/v2/keys", { key: f.key, method: "POST" });
}

async function partnerRowsOn(shard: string, partnerId: string): Promise<number> {
  const row = await shardDatabase(shard)
    .prepare("SELECT count(*) AS n FROM partners WHERE partner_id = ?")
    .bind(partnerId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("a move left frozen", () => {
  it("is listed with its age and when it will be aborted, and aborted by the maintenance past 6 hours", async () => {
    const { f, move } = await frozenPartner();
    const listed = await expectJson<{ data: MoveView[] }>(await operator("GET", "/moves"), 200);
    const shown = listed.data.find((m) => m.move_id === move.move_id);
    expect(shown).toMatchObject({ partner_id: f.partnerId, phase: "copying", finished_at: null });
    expect(shown?.age_seconds).toBeGreaterThanOrEqual(0);
    expect(shown?.age_seconds).toBeLessThan(60);
    expect(Date.parse(shown?.aborts_at ?? "")).toBe(Date.parse(move.started_at) + 6 * HOUR);
    expect((await write(f)).status).toBe(503);

    // Five hours on, it is left alone.
    const errors = vi.spyOn(console, "error");
    await maintenanceAt(Date.parse(move.started_at) + 5 * HOUR);
    const later = await expectJson<MoveView>(
      await operator("GET", `/partners/${f.partnerId}/move`),
      200,
    );
    expect(later.phase).toBe("copying");

    // Past six hours, the maintenance aborts it and raises an alert.
    await maintenanceAt(Date.parse(move.started_at) + 6 * HOUR + 60_000);
    const aborted = await expectJson<MoveView>(
      await operator("GET", `/partners/${f.partnerId}/move`),
      200,
    );
    expect(aborted.phase).toBe("aborted");
    expect(aborted.error).toContain("frozen for more than 6 hours");
    expect(aborted.aborts_at).toBeNull();
    const alerts = errors.mock.calls
      .map(([line]) => String(line))
      .filter((line) => line.includes('"partner_moves":"aborted"'));
    expect(alerts).toHaveLength(1);
    expect(JSON.parse(alerts[0] ?? "{}")).toMatchObject({
      alert: true,
      move_id: move.move_id,
      partner_id: f.partnerId,
      from_shard: "00",
      to_shard: "01",
    });
    const after = await expectJson<{ data: MoveView[] }>(await operator("GET", "/moves"), 200);
    expect(after.data.map((m) => m.move_id)).not.toContain(move.move_id);
    // The partner writes again on its source shard; the partial copy is gone.
    expect((await write(f)).status).toBe(201);
    expect(await partnerRowsOn("01", f.partnerId)).toBe(0);
    const fences = await shardDatabase("00")
      .prepare("SELECT count(*) AS n FROM move_fences WHERE partner_id = ?")
      .bind(f.partnerId)
      .first<{ n: number }>();
    expect(fences?.n).toBe(0);
  });

  it("is aborted by the operator's next step once past the limit, instead of copying on", async () => {
    const { f, move } = await frozenPartner();
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    await env.DIRECTORY.prepare("UPDATE partner_moves SET started_at = ? WHERE move_id = ?")
      .bind(new Date(Date.now() - 6 * HOUR - 1000).toISOString(), move.move_id)
      .run();
    const res = await operator("POST", `/partners/${f.partnerId}/move`, { shard: "01" });
    const stepped = await expectJson<MoveView>(res, 200);
    expect(stepped).toMatchObject({ phase: "aborted", aborts_at: null });
    expect(stepped.age_seconds).toBeGreaterThanOrEqual(6 * 3600);
    expect((await write(f)).status).toBe(201);
  });
});
