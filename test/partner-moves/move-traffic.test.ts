// A partner moved while it and two neighbours on the same shard keep sending requests: every
// request of all three reaches its partner's request log and daily counts, once; the neighbours'
// requests are written while the partner is frozen, the moving partner's once it has switched.
import { env } from "cloudflare:workers";
import { afterAll, describe, expect, it } from "vitest";
import { api, expectJson, operator } from "../support/api";
import { eventually } from "../support/eventually";
import { type Fixture, seedAccount, statementsPath } from "../support/fixtures";
import { loggedRequest, newRequestId } from "../support/request-logs";
import { SHARDS, shardDatabase, shardOf } from "../support/shards";

interface MoveView {
  phase: string;
}

/** Request ids logged for the partner on each shard, and its daily counts' total there. */
async function loggedOn(partnerId: string) {
  const ids: string[] = [];
  let counted = 0;
  for (const shard of SHARDS) {
    const db = shardDatabase(shard);
    const { results } = await db
      .prepare("SELECT request_id FROM request_logs WHERE partner_id = ?")
      .bind(partnerId)
      .all<{ request_id: string }>();
    ids.push(...results.map((r) => r.request_id));
    const days = await db
      .prepare("SELECT coalesce(sum(requests), 0) AS n FROM request_log_days WHERE partner_id = ?")
      .bind(partnerId)
      .first<{ n: number }>();
    counted += days?.n ?? 0;
  }
  return { ids, counted };
}

let running = false;
afterAll(() => {
  running = false;
});

describe("request logs while a partner moves", () => {
  it("keep every request of the moving partner and of its neighbours, none twice", {
    timeout: 240_000,
  }, async () => {
    const [from, to] = [SHARDS[0] as string, SHARDS[1] as string];
    const moving = await seedAccount({ shard: from, statements: 30 });
    const neighbours = [
      await seedAccount({ shard: from, statements: 2 }),
      await seedAccount({ shard: from, statements: 2 }),
    ];
    const everyone = [moving, ...neighbours];
    const sent = new Map<string, string[]>(everyone.map((f) => [f.partnerId, []]));
    const failures: string[] = [];

    /** One client of a partner: a read, then the next, until told to stop. */
    const client = async (f: Fixture) => {
      while (running) {
        const id = newRequestId();
        const res = await api(statementsPath(f, "?limit=2"), {
          key: f.key,
          headers: { "x-request-id": id },
        });
        await res.arrayBuffer();
        if (res.status !== 200) failures.push(`${f.partnerId}: ${res.status}`);
        sent.get(f.partnerId)?.push(id);
        // A pause between requests, as a real client has: a loop of requests served in the same
        // isolate would otherwise starve its timers (the queue's deliveries among them).
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    running = true;
    const clients = everyone.map(client);

    // The move, in steps of a few rows: the partner stays frozen across several calls, and
    // between two of them a neighbour's request reaches its log while the partner is frozen.
    const path = `/partners/${moving.partnerId}/move`;
    let view: MoveView | null = null;
    let calls = 0;
    let neighbourLoggedWhileFrozen = false;
    let sentWhileFrozen = 0;
    try {
      while (calls < 300) {
        const res = await operator("POST", path, { shard: to, max_rows: 5 });
        view = await expectJson<MoveView>(res, res.status === 200 ? 200 : 202);
        calls += 1;
        if (calls === 1) sentWhileFrozen = -(sent.get(moving.partnerId)?.length ?? 0);
        if (view.phase !== "copying" && view.phase !== "verifying") break;
        if (!neighbourLoggedWhileFrozen && calls >= 2) {
          const id = newRequestId();
          const neighbour = neighbours[0] as Fixture;
          const res = await api(statementsPath(neighbour), {
            key: neighbour.key,
            headers: { "x-request-id": id },
          });
          expect(res.status).toBe(200);
          sent.get(neighbour.partnerId)?.push(id);
          const row = await loggedRequest(id, 30_000);
          expect(row.partner_id).toBe(neighbour.partnerId);
          const frozen = await shardDatabase(from)
            .prepare("SELECT moving_to FROM partners WHERE partner_id = ?")
            .bind(moving.partnerId)
            .first<{ moving_to: string | null }>();
          expect(frozen?.moving_to).toBe(to);
          neighbourLoggedWhileFrozen = true;
        }
      }
      sentWhileFrozen += sent.get(moving.partnerId)?.length ?? 0;
    } finally {
      running = false;
      await Promise.all(clients);
    }
    expect(view?.phase).toBe("switched");
    // The moving partner kept sending while frozen: its records had to wait for the switch.
    expect(sentWhileFrozen).toBeGreaterThan(0);
    expect(neighbourLoggedWhileFrozen).toBe(true);
    expect(failures).toEqual([]);
    expect(await shardOf(moving.partnerId)).toBe(to);

    // The old copy retired (brought forward), so that each request is counted where it lives.
    await env.DIRECTORY.prepare(
      "UPDATE partner_moves SET retire_after = ? WHERE partner_id = ? AND finished_at IS NULL",
    )
      .bind(new Date(Date.now() - 1000).toISOString(), moving.partnerId)
      .run();
    const done = await expectJson<MoveView>(await operator("POST", path, { shard: to }), 200);
    expect(done.phase).toBe("done");
    // Every request of all three, once, in the partner's log and daily counts.
    for (const f of everyone) {
      const expected = sent.get(f.partnerId) ?? [];
      expect(expected.length).toBeGreaterThan(2);
      const logged = await eventually(
        () => loggedOn(f.partnerId),
        (l) => l.ids.length >= expected.length && l.counted >= expected.length,
        90_000,
      );
      expect([...logged.ids].sort()).toEqual([...expected].sort());
      expect(logged.counted).toBe(expected.length);
      console.info(
        `move under traffic: ${f === moving ? "moving" : "neighbour"} ${f.partnerId} sent ` +
          `${expected.length}, logged ${logged.ids.length}, counted ${logged.counted}` +
          (f === moving ? `, ${sentWhileFrozen} of them while frozen` : ""),
      );
    }
    // The moving partner's rows are on its new shard only.
    const onSource = await shardDatabase(from)
      .prepare("SELECT count(*) AS n FROM request_logs WHERE partner_id = ?")
      .bind(moving.partnerId)
      .first<{ n: number }>();
    expect(onSource?.n).toBe(0);
  });
});
