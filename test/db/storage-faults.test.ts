// Storage faults: whichever D1 or R2 call of a request fails (first call, a batch, the middle of a
// batch, an R2 get or put; on the partner's shard, another shard or the directory), by error or
// timeout, the answer is 503 SERVICE_UNAVAILABLE_ERROR with Retry-After and no internal detail,
// and nothing is partly written. Each scenario first runs without faults to count its storage
// calls, then once per call and failure mode.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import app from "../../src/index";
import { executionContext } from "../support/app-env";
import { assertMatchesReference } from "../support/contract";
import { type FaultMode, StorageProbe } from "../support/faulty-storage";
import { seedAccount } from "../support/fixtures";
import { countOnEveryShard, SHARDS, shardDatabase } from "../support/shards";
import {
  dailyStatement,
  operatorRequest,
  row,
  SCENARIOS,
} from "../support/storage-fault-scenarios";

/** Every D1 binding (the shards and the directory) and the bucket, behind one probe. */
async function send(request: Request, probe: StorageProbe): Promise<Response> {
  const faulty: Record<string, unknown> = {
    ...env,
    DIRECTORY: probe.db(env.DIRECTORY),
    PDFS: probe.bucket(env.PDFS),
    PDFS_EU: probe.bucket(env.PDFS_EU),
  };
  for (const shard of SHARDS) faulty[`DB_${shard}`] = probe.db(shardDatabase(shard));
  const ctx = executionContext();
  const res = await app.fetch(request, faulty, ctx);
  await ctx.settled();
  return res;
}

async function expectUnavailable(res: Response, request: Request, what: string): Promise<void> {
  const url = new URL(request.url);
  if (url.pathname.startsWith("/v2/")) {
    await assertMatchesReference(url.pathname + url.search, request.method, res.clone());
  }
  const text = await res.text();
  expect(res.status, `${what}: ${text}`).toBe(503);
  expect(res.headers.get("retry-after")).toBe("1");
  if (request.method === "HEAD") return;
  // A dashboard page says so in words; everything else in the error shape.
  if (url.pathname.startsWith("/dashboard")) expect(text).toContain("Temporarily unavailable");
  else expect(JSON.parse(text).error.type).toBe("SERVICE_UNAVAILABLE_ERROR");
  // A page's CSRF token is random text (one read "r2-…"), so its value is left out; the request
  // id and the random user address hold letters, so each name is matched from a word's start.
  const searched = text.replace(/name="csrf" value="[^"]*"/g, 'name="csrf"');
  expect(searched).not.toMatch(
    /\b(?:D1_|R2\b|SQL|network|timeout|timed out|overflow|internal error)/i,
  );
}

describe("storage faults", () => {
  for (const scenario of SCENARIOS) {
    // One request per call and failure mode: an import asks every shard of the test run.
    it(`answers 503 and writes nothing when any call of ${scenario.name} fails`, {
      timeout: 60_000,
    }, async () => {
      const counted = new StorageProbe();
      const res = await send((await scenario.prepare()).request(), counted);
      // Bytes, not text(): a download's answer is a PDF.
      expect(res.status, new TextDecoder().decode(await res.arrayBuffer())).toBe(scenario.status);
      expect(counted.calls.length).toBeGreaterThan(0);

      for (const [index, call] of counted.calls.entries()) {
        const modes: FaultMode[] = ["error", "timeout"];
        if (call.op === "batch") modes.push("mid-batch");
        for (const mode of modes) {
          const prepared = await scenario.prepare();
          const before = await prepared.state();
          const request = prepared.request();
          const what = `call ${index + 1} (${call.binding}.${call.op}), ${mode}`;
          await expectUnavailable(
            await send(request, new StorageProbe(index + 1, mode)),
            request,
            what,
          );
          expect(await prepared.state(), what).toEqual(before);
        }
      }
    });
  }
});

describe("the import's atomicity", () => {
  it("writes everything in exactly one batch, however large the import", async () => {
    for (const count of [1, 40, 400]) {
      const f = await seedAccount();
      const payload = {
        accounts: [{ account_id: f.accountId, customer_id: f.customerId, current_balance: count }],
        statements: Array.from({ length: count }, (_, i) => dailyStatement(f.accountId, i)),
      };
      const probe = new StorageProbe();
      const res = await send(
        operatorRequest("/import", { method: "POST", body: JSON.stringify(payload) }),
        probe,
      );
      expect(res.status, await res.text()).toBe(200);
      const writes = probe.writes();
      expect(writes).toHaveLength(1);
      expect(writes[0]?.op).toBe("batch");
      // The statements are written set-based inside that one batch (with whatever else the
      // import writes): one INSERT … SELECT per JSON chunk, and each of these payloads is one chunk.
      const upserts = writes[0]?.sql.filter((sql) => /^\s*insert into "?statements"?/i.test(sql));
      expect(upserts).toHaveLength(1);
      const stored = await countOnEveryShard(
        "SELECT count(*) AS n FROM statements WHERE account_id = ?",
        f.accountId,
      );
      expect(stored).toBe(count);
    }
  });

  it("leaves nothing behind when the batch fails midway, even in a large import", async () => {
    const f = await seedAccount();
    const payload = {
      statements: Array.from({ length: 300 }, (_, i) => dailyStatement(f.accountId, i)),
    };
    const request = operatorRequest("/import", { method: "POST", body: JSON.stringify(payload) });
    await expectUnavailable(
      await send(request, new StorageProbe(2, "mid-batch")),
      request,
      "batch",
    );
    expect(
      await row("SELECT statement_id FROM statements WHERE account_id = ?", f.accountId),
    ).toEqual([]);
  });
});
