// Dead letters: every queue has a dead-letter queue, whose messages the Worker stores on the shard
// of their partner; the operator lists them across shards, re-drives them (request logs go back as
// they were, renders and deliveries start a new cycle and run again) and discards them; they are
// purged after 30 days.
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { shardJurisdiction } from "../../src/db/shards";
import { toBase62 } from "../../src/domain/encoding";
import worker from "../../src/index";
import { runMaintenance } from "../../src/jobs";
import wranglerToml from "../../wrangler.toml?raw";
import { api, type ErrorBody, expectJson, operator } from "../support/api";
import { eventually } from "../support/eventually";
import { importData, monthlyStatement, seedAccount, uniqueId } from "../support/fixtures";
import { logRecord, storedRequests } from "../support/request-logs";
import { SHARDS, shardDatabase, shardOf } from "../support/shards";
import { RECEIVER, type Receiver, startReceiver } from "../support/webhook-receiver";
import { BASE, OPERATOR_TOKEN } from "../support/worker";

interface DeadLetter {
  dead_letter_id: string;
  queue: string;
  partner_id: string | null;
  shard: string;
  dead_at: string;
  body: unknown;
}
interface DeadLetterList {
  data: DeadLetter[];
  has_more: boolean;
}
interface Redriven {
  redriven: number;
  finished: number;
  waiting: number;
  has_more: boolean;
}

let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver();
});
afterAll(() => receiver.restore());

/** Hands `bodies` to the Worker as a delivery of dead-letter queue `queue`; answers it. */
async function deadLettered(queue: string, bodies: unknown[]): Promise<MessageBatch<unknown>> {
  const batch = createMessageBatch(
    queue,
    bodies.map((body) => ({ id: uniqueId("msg"), timestamp: new Date(), attempts: 1, body })),
  );
  await worker.queue(batch, env);
  return batch;
}

async function list(query: string): Promise<DeadLetterList> {
  return expectJson<DeadLetterList>(await operator("GET", `/dead-letters${query}`), 200);
}

describe("the dead-letter queues", () => {
  it("give every queue the Worker consumes one, and are consumed by the Worker in turn", () => {
    const consumers = [...wranglerToml.matchAll(/\[\[queues\.consumers\]\]([^[]*)/g)].map(
      ([, block]) => ({
        queue: /queue\s*=\s*"([^"]+)"/.exec(block ?? "")?.[1] ?? "",
        deadLetters: /dead_letter_queue\s*=\s*"([^"]+)"/.exec(block ?? "")?.[1],
      }),
    );
    const deadLetterQueues = new Set(consumers.flatMap((c) => c.deadLetters ?? []));
    // The eu request logs' dead letters stay in that jurisdiction, in a queue of their own.
    expect([...deadLetterQueues].sort()).toEqual([
      "request-log-dead-letters",
      "request-log-dead-letters-eu",
      "statement-render-dead-letters",
      "webhook-dead-letters",
    ]);
    for (const consumer of consumers) {
      if (deadLetterQueues.has(consumer.queue)) continue;
      expect(consumer.deadLetters, consumer.queue).toBeDefined();
    }
    // Each dead-letter queue is consumed here: its messages reach the operator.
    for (const queue of deadLetterQueues) {
      expect(consumers.map((c) => c.queue)).toContain(queue);
    }
  });
});

describe("dead request logs", () => {
  it("of an eu partner go back through the eu request-log queue, never the global one", async () => {
    const eu = SHARDS.find((code) => shardJurisdiction(env, code) === "eu");
    expect(eu).toBeDefined();
    const p = await seedAccount({ shard: eu });
    const record = logRecord(p.partnerId, new Date(), { shard: eu });
    await deadLettered("request-log-dead-letters-eu", [JSON.stringify([record])]);
    expect((await list(`?partner_id=${p.partnerId}`)).data.map((d) => d.shard)).toEqual([eu]);

    // The re-drive's sends, seen through queues that record them.
    const sent: Record<"global" | "eu", string[]> = { global: [], eu: [] };
    const recording = (into: string[]) =>
      ({
        send: async (body: unknown) => {
          into.push(String(body));
        },
        sendBatch: async (messages: Iterable<MessageSendRequest>) => {
          for (const m of messages) into.push(String(m.body));
        },
      }) as unknown as Queue;
    const spied = {
      ...env,
      REQUEST_LOGS: recording(sent.global),
      REQUEST_LOGS_EU: recording(sent.eu),
    };
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`${BASE}/operator/v1/dead-letters/redrive`, {
        method: "POST",
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ queue: "request-logs", partner_id: p.partnerId }),
      }),
      spied,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(await expectJson<Redriven>(res, 200)).toEqual({
      redriven: 1,
      finished: 0,
      waiting: 0,
      has_more: false,
    });
    expect(sent.eu.some((body) => body.includes(record.request_id))).toBe(true);
    expect(sent.global.some((body) => body.includes(record.request_id))).toBe(false);
  });

  it("are stored per partner on its shard, listed newest first, and re-driven into the log", async () => {
    const [a, b] = [
      await seedAccount({ shard: SHARDS[0] }),
      await seedAccount({ shard: SHARDS[1] }),
    ];
    const records = [
      logRecord(a.partnerId, new Date(), { shard: SHARDS[0] }),
      logRecord(b.partnerId, new Date(), { shard: SHARDS[1] }),
      logRecord(a.partnerId, new Date(), { shard: SHARDS[0] }),
    ];
    const batch = await deadLettered("request-log-dead-letters", [JSON.stringify(records)]);

    const ofA = await list(`?queue=request-logs&partner_id=${a.partnerId}`);
    expect(ofA.data).toHaveLength(1);
    expect(ofA.data[0]).toMatchObject({
      dead_letter_id: expect.stringMatching(/^dl_[0-9A-Za-z]{25}$/),
      queue: "request-logs",
      partner_id: a.partnerId,
      shard: SHARDS[0],
      body: [records[0], records[2]],
    });
    const ofB = await list(`?partner_id=${b.partnerId}`);
    expect(ofB.data.map((d) => [d.shard, d.body])).toEqual([[SHARDS[1], [records[1]]]]);
    // Delivered twice, stored once.
    await worker.queue(batch, env);
    expect((await list(`?partner_id=${a.partnerId}`)).data).toHaveLength(1);
    const page = await list("?queue=request-logs&limit=1");
    expect(page.data).toHaveLength(1);
    expect(page.has_more).toBe(true);

    // Re-driven: back to the request-log queue, into each partner's log, and off the list.
    for (const partnerId of [a.partnerId, b.partnerId]) {
      const redriven = await expectJson<Redriven>(
        await operator("POST", "/dead-letters/redrive", {
          queue: "request-logs",
          partner_id: partnerId,
        }),
        200,
      );
      expect(redriven).toEqual({ redriven: 1, finished: 0, waiting: 0, has_more: false });
    }
    for (const record of records) {
      const stored = await eventually(
        () => storedRequests(record.request_id),
        (rows) => rows.length === 1,
      );
      expect(stored).toHaveLength(1);
    }
    expect((await list(`?partner_id=${a.partnerId}`)).data).toEqual([]);
    expect((await list(`?partner_id=${b.partnerId}`)).data).toEqual([]);
  });
});

describe("a dead letter naming a shard this deployment does not bind", () => {
  it("is filed on no other shard: it is retried and raised as an alert", async () => {
    const partnerId = uniqueId("partner");
    const errors = vi.spyOn(console, "error");
    try {
      const unbound = "99";
      const bound = logRecord(partnerId, new Date(), { shard: SHARDS[0] });
      const lost = logRecord(partnerId, new Date(), { shard: unbound });
      const batch = await deadLettered("webhook-dead-letters", [
        { shard: unbound, partner_id: partnerId, delivery_id: "whd_x" },
      ]);
      const mixed = await deadLettered("request-log-dead-letters", [JSON.stringify([bound, lost])]);

      const delivery = await getQueueResult(batch, createExecutionContext());
      expect(delivery.retryMessages.map((m) => m.msgId)).toEqual([batch.messages[0]?.id]);
      expect(delivery.explicitAcks).toEqual([]);
      // The records naming a bound shard are stored there; the message is retried for the rest.
      const logs = await getQueueResult(mixed, createExecutionContext());
      expect(logs.retryMessages).toHaveLength(1);
      const stored = (await list(`?partner_id=${partnerId}`)).data;
      expect(stored.map((d) => [d.queue, d.shard, d.body])).toEqual([
        ["request-logs", SHARDS[0], [bound]],
      ]);
      const alerts = errors.mock.calls
        .map(([line]) => String(line))
        .filter((line) => line.includes('"unbound shard"'));
      expect(alerts).toHaveLength(2);
      expect(JSON.parse(alerts[0] ?? "{}")).toMatchObject({
        alert: true,
        queue: "webhook-deliveries",
        shard: unbound,
      });
    } finally {
      errors.mockRestore();
    }
  });
});

describe("dead renders and deliveries", () => {
  it("start a new cycle when re-driven: the render is drawn again", {
    timeout: 60_000,
  }, async () => {
    const f = await seedAccount({ documents: "rendered", statements: 1 });
    const shard = await shardOf(f.partnerId);
    const db = shardDatabase(shard);
    const statementId = `${f.accountId}_st_001`;
    await eventually(
      () =>
        db
          .prepare("SELECT status FROM statement_renders WHERE statement_id = ?")
          .bind(statementId)
          .first<string>("status"),
      (status) => status === "rendered",
      30_000,
    );
    // The service gave up on it (its retry window closed) and dead-lettered it.
    await db
      .prepare("UPDATE statement_renders SET status = 'failed' WHERE statement_id = ?")
      .bind(statementId)
      .run();
    const ref = {
      shard,
      partner_id: f.partnerId,
      environment: "sandbox",
      statement_id: statementId,
      generation: 0,
    };
    await deadLettered("statement-render-dead-letters", [ref]);
    const listed = await list(`?queue=statement-renders&partner_id=${f.partnerId}`);
    expect(listed.data.map((d) => d.body)).toEqual([ref]);

    const redriven = await expectJson<Redriven>(
      await operator("POST", "/dead-letters/redrive", {
        dead_letter_ids: [listed.data[0]?.dead_letter_id],
      }),
      200,
    );
    expect(redriven).toEqual({ redriven: 1, finished: 0, waiting: 0, has_more: false });
    const render = await eventually(
      () =>
        db
          .prepare("SELECT status, generation FROM statement_renders WHERE statement_id = ?")
          .bind(statementId)
          .first<{ status: string; generation: number }>(),
      (row) => row?.status === "rendered",
      30_000,
    );
    expect(render).toEqual({ status: "rendered", generation: 1 });
  });

  it("start a new cycle when re-driven: the delivery is attempted again", {
    timeout: 60_000,
  }, async () => {
    const f = await seedAccount();
    const path = `/ok/dead-letter-${f.partnerId}`;
    const endpoint = await expectJson<{ webhook_endpoint_id: string }>(
      await api("/v2/webhook_endpoints", {
        key: f.key,
        method: "POST",
        body: { url: `${RECEIVER}${path}` },
      }),
      201,
    );
    await importData({ statements: [monthlyStatement(f.accountId, 1, uniqueId("st"))] });
    await receiver.waitFor(path, 1);
    const shard = await shardOf(f.partnerId);
    const db = shardDatabase(shard);
    const delivery = await db
      .prepare("SELECT event_id FROM webhook_deliveries WHERE endpoint_id = ?")
      .bind(endpoint.webhook_endpoint_id)
      .first<{ event_id: string }>();
    await db
      .prepare("UPDATE webhook_deliveries SET status = 'failed' WHERE endpoint_id = ?")
      .bind(endpoint.webhook_endpoint_id)
      .run();
    const ref = {
      event_id: delivery?.event_id,
      endpoint_id: endpoint.webhook_endpoint_id,
      generation: 0,
      partner_id: f.partnerId,
      shard,
    };
    // One of an endpoint that exists no more: nothing left to deliver.
    const gone = { ...ref, endpoint_id: uniqueId("we") };
    await deadLettered("webhook-dead-letters", [ref, gone]);
    const redriven = await expectJson<Redriven>(
      await operator("POST", "/dead-letters/redrive", {
        queue: "webhook-deliveries",
        partner_id: f.partnerId,
      }),
      200,
    );
    expect(redriven).toEqual({ redriven: 1, finished: 1, waiting: 0, has_more: false });
    expect((await receiver.waitFor(path, 2)).length).toBe(2);
    const after = await eventually(
      () =>
        db
          .prepare("SELECT status, generation FROM webhook_deliveries WHERE endpoint_id = ?")
          .bind(endpoint.webhook_endpoint_id)
          .first<{ status: string; generation: number }>(),
      (row) => row?.status === "succeeded",
    );
    expect(after).toEqual({ status: "succeeded", generation: 1 });
    expect((await list(`?partner_id=${f.partnerId}`)).data).toEqual([]);
  });
});

describe("the dead letters' operator routes", () => {
  it("discard one, refuse what they do not know, and purge after 30 days", async () => {
    const partnerId = uniqueId("partner");
    const record = logRecord(partnerId, new Date(), { shard: SHARDS[0] });
    await deadLettered("request-log-dead-letters", [JSON.stringify([record])]);
    const [letter] = (await list(`?partner_id=${partnerId}`)).data;
    expect(letter?.partner_id).toBe(partnerId);
    expect((await operator("DELETE", `/dead-letters/${letter?.dead_letter_id}`)).status).toBe(204);
    expect((await list(`?partner_id=${partnerId}`)).data).toEqual([]);
    const again = await operator("DELETE", `/dead-letters/${letter?.dead_letter_id}`);
    expect((await expectJson<ErrorBody>(again, 404)).error.type).toBe("NOT_FOUND_ERROR");

    const badQueue = await operator("GET", "/dead-letters?queue=nope");
    expect((await expectJson<ErrorBody>(badQueue, 400)).error.message).toContain("queue must be");
    const badCursor = await operator("GET", "/dead-letters?starting_after=x");
    expect((await expectJson<ErrorBody>(badCursor, 400)).error.message).toContain("starting_after");
    const badBody = await operator("POST", "/dead-letters/redrive", { queue: "nope" });
    expect(badBody.status).toBe(400);
    const tooMany = await operator("POST", "/dead-letters/redrive", { limit: 101 });
    expect(tooMany.status).toBe(400);
    expect((await operator("GET", "/dead-letters", undefined, { authorization: "" })).status).toBe(
      401,
    );

    // A dead letter nobody re-drove for 30 days is gone; a younger one stays.
    const now = Date.now();
    const died = (daysAgo: number) =>
      `dl_${toBase62(now - daysAgo * 86_400_000, 9)}${"0".repeat(14)}${daysAgo}`;
    for (const daysAgo of [31, 29]) {
      await shardDatabase(SHARDS[0] as string)
        .prepare(
          "INSERT INTO dead_letters (dead_letter_id, queue, partner_id, body, dead_at) " +
            "VALUES (?, 'request-logs', ?, '[]', ?)",
        )
        .bind(died(daysAgo), partnerId, new Date().toISOString())
        .run();
    }
    await runMaintenance(
      createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }),
      env,
    );
    expect((await list(`?partner_id=${partnerId}`)).data.map((d) => d.dead_letter_id)).toEqual([
      died(29),
    ]);
  });
});
