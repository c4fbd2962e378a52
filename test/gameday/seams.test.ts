// The game day's fault seams (src/gameday/): inert unless the run's flag is on, which no
// configuration file sets and a deployed Worker's marker overrides; with the flag, a fault armed
// through `/__gameday/faults` reaches the service where production breaks.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import devVarsExample from "../../.dev.vars.example?raw";
import rendererToml from "../../renderer/wrangler.toml?raw";
import deploySecrets from "../../scripts/deploy-secrets.env?raw";
import { gameDayEnabled } from "../../src/gameday";
import worker from "../../src/index";
import wranglerToml from "../../wrangler.toml?raw";
import { api } from "../support/api";
import { seedAccount, statementsPath } from "../support/fixtures";
import { BASE, OPERATOR_TOKEN } from "../support/worker";

const flagged = { ...env, GAMEDAY_FAULTS: "on" };
const auth = { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/json" };

/** A request to the Worker with the flag on. */
async function flaggedFetch(path: string, init: RequestInit = {}): Promise<Response> {
  return await worker.fetch(new Request(`${BASE}${path}`, init), flagged, createExecutionContext());
}

function control(method: string, body?: unknown): Promise<Response> {
  return flaggedFetch("/__gameday/faults", {
    method,
    headers: auth,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe("the game day's seams", () => {
  it("are set by no configuration a deploy reads", () => {
    for (const text of [wranglerToml, rendererToml, deploySecrets, devVarsExample]) {
      expect(text).not.toContain("GAMEDAY_FAULTS");
    }
    expect(gameDayEnabled(env)).toBe(false);
    expect(gameDayEnabled({ GAMEDAY_FAULTS: "on", DEPLOYMENT: "production" })).toBe(false);
    expect(gameDayEnabled({ GAMEDAY_FAULTS: "yes" })).toBe(false);
    expect(gameDayEnabled(flagged)).toBe(true);
  });

  it("answer 404 without the flag, and leave the service's answers as they are", async () => {
    const res = await worker.fetch(
      new Request(`${BASE}/__gameday/faults`, { method: "POST", headers: auth, body: "{}" }),
      env,
      createExecutionContext(),
    );
    expect(res.status).toBe(404);
    const fixture = await seedAccount({ statements: 1 });
    expect((await api(statementsPath(fixture), { key: fixture.key })).status).toBe(200);
  });

  it("refuse a caller without the operator's token, and a fault they do not know", async () => {
    const anonymous = await flaggedFetch("/__gameday/faults");
    expect(anonymous.status).toBe(401);
    const unknown = await control("POST", { name: "meteor" });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ error: 'unknown fault "meteor"' });
  });

  it("fail one shard's database for as long as the outage lasts, as a 503", async () => {
    const fixture = await seedAccount({ statements: 1, shard: "01" });
    const read = () =>
      flaggedFetch(statementsPath(fixture), {
        headers: { authorization: `Bearer ${fixture.key}` },
      });
    expect((await control("POST", { name: "d1-outage", shard: "01", seconds: 30 })).status).toBe(
      201,
    );
    const refused = await read();
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    const report = (await control("DELETE").then((r) => r.json())) as {
      finished: { name: string; hits: number }[];
    };
    expect(report.finished[0]?.name).toBe("d1-outage");
    expect(report.finished[0]?.hits).toBeGreaterThan(0);
    expect((await read()).status).toBe(200);
  });

  it("acknowledge a lost batch without working it, and kill a consumer mid-batch", async () => {
    await control("POST", { name: "lost-ack", queue: "request-logs", batches: 1 });
    const lost = createMessageBatch("request-logs", [
      { id: "a", timestamp: new Date(), attempts: 1, body: "not records" },
      { id: "b", timestamp: new Date(), attempts: 1, body: "not records" },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(lost, flagged);
    const acked = await getQueueResult(lost, ctx);
    expect(acked.ackAll).toBe(true);
    expect(acked.retryBatch.retry).toBe(false);

    await control("POST", { name: "consumer-throws", queue: "request-logs", batches: 1 });
    const killed = createMessageBatch("request-logs", [
      { id: "c", timestamp: new Date(), attempts: 1, body: "[]" },
      { id: "d", timestamp: new Date(), attempts: 1, body: "[]" },
    ]);
    await expect(worker.queue(killed, flagged)).rejects.toThrow(/died mid-batch/);
    const report = (await control("DELETE").then((r) => r.json())) as {
      finished: { name: string; hits: number }[];
    };
    expect(report.finished.map((f) => [f.name, f.hits])).toEqual([
      ["lost-ack", 2],
      ["consumer-throws", 1],
    ]);
  });

  it("name what they hit, and leave the lone message of a killed batch unworked", async () => {
    const render = { partner_id: "p", environment: "sandbox", statement_id: "st_1", generation: 1 };
    const delivery = { event_id: "evt_1", endpoint_id: "we_1", generation: 1, partner_id: "p" };
    await control("POST", { name: "lost-ack", queue: "statement-renders", batches: 1 });
    const lost = createMessageBatch<unknown>("statement-renders", [
      { id: "e", timestamp: new Date(), attempts: 1, body: render },
      { id: "f", timestamp: new Date(), attempts: 1, body: delivery },
    ]);
    await worker.queue(lost, flagged);

    await control("POST", { name: "consumer-throws", queue: "request-logs", batches: 1 });
    const lone = createMessageBatch("request-logs", [
      { id: "g", timestamp: new Date(), attempts: 1, body: "[]" },
    ]);
    await expect(worker.queue(lone, flagged)).rejects.toThrow(/died mid-batch/);
    const killed = await getQueueResult(lone, createExecutionContext());
    expect(killed.explicitAcks).toEqual([]);

    const report = (await control("DELETE").then((r) => r.json())) as {
      finished: { name: string; hits: number; examples: string[] }[];
    };
    expect(report.finished.map((f) => [f.name, f.hits, f.examples])).toEqual([
      ["lost-ack", 2, ["render of st_1", "delivery of evt_1"]],
      ["consumer-throws", 1, ["0 log records"]],
    ]);
  });
});
