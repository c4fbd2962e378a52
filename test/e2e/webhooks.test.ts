// Partner integration end to end over real HTTP: a throwaway `wrangler dev` (its queue run by
// Miniflare), a receiver on loopback, the typed client from packages/client, and the client
// README's example run exactly as written.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createClient, verifyWebhook } from "@card-statements/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalService, operatorFetch, startLocalService } from "../support/node/local-service";
import { PROCESS_TEST_MS } from "../support/node/timeouts.ts";
import { startReceiver, waitFor } from "../support/node/webhook-receiver";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** One closed statement a month, ending `months` months before November 2026. */
function statement(accountId: string, index: number) {
  const end = new Date(Date.UTC(2026, 10 - index, 0, 23, 59, 59));
  return {
    statement_id: `${accountId}_${String(index).padStart(3, "0")}`,
    account_id: accountId,
    period_end_date: end.toISOString(),
    currency: "USD",
    statement_balance: 1000 + index,
  };
}

describe("partner integration over HTTP", () => {
  let service: LocalService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let apiKey: string;

  const operator = (method: string, route: string, body?: unknown, type?: string) =>
    operatorFetch(service, route, {
      method,
      ...(body === undefined
        ? {}
        : { body: typeof body === "string" ? body : JSON.stringify(body) }),
      ...(type ? { headers: { "content-type": type } } : {}),
    });

  beforeAll(async () => {
    receiver = await startReceiver();
    service = await startLocalService({
      vars: {
        WEBHOOK_ALLOW_LOOPBACK: "true",
        WEBHOOK_RETRY_BASE_SECONDS: "1",
        WEBHOOK_RETRY_WINDOW_SECONDS: "60",
      },
    });
    // The README's demo ids: a customer whose everyday account holds 250 statements, of a
    // product whose documents are uploaded (as a programme that renders elsewhere does).
    const res = await operator("POST", "/import", {
      partners: [
        {
          partner_id: "demo_bank",
          name: "Demo Bank",
          products: [{ merchant_key: "mk_demo", name: "Card", documents: "uploaded" }],
        },
      ],
      customers: [
        {
          customer_id: "cus_demo_ava",
          partner_id: "demo_bank",
          environment: "sandbox",
          merchant_key: "mk_demo",
        },
      ],
      accounts: [
        { account_id: "acc_demo_everyday", customer_id: "cus_demo_ava" },
        { account_id: "acc_demo_travel", customer_id: "cus_demo_ava" },
      ],
      statements: Array.from({ length: 250 }, (_, i) => statement("acc_demo_everyday", i + 1)),
    });
    expect(res.status, await res.text()).toBe(200);
    const key = await operator("POST", "/partners/demo_bank/keys", {
      environment: "sandbox",
      scopes: ["ACCOUNT_READ"],
    });
    apiKey = ((await key.json()) as { api_key: string }).api_key;
  });

  afterAll(async () => {
    await service?.stop();
    receiver?.server.close();
  });

  it("delivers a new statement and its PDF as two signed events, in order", async () => {
    const client = createClient({ apiKey, version: "latest", baseUrl: service.base });
    const endpoint = await client.webhookEndpoints.create({ url: `${receiver.url}/ok/events` });
    expect(endpoint.secret).toMatch(/^whsec_/);

    const imported = await operator("POST", "/import", {
      statements: [statement("acc_demo_travel", 1)],
    });
    expect(imported.status).toBe(200);
    const pdf = await operator(
      "PUT",
      "/statements/acc_demo_travel_001/pdf",
      "%PDF-1.4\n%%EOF\n",
      "application/pdf",
    );
    expect(pdf.status).toBe(204);

    const deliveries = await waitFor(receiver.received, "/ok/events", 2);
    const events = await Promise.all(
      deliveries.map((d) =>
        verifyWebhook<"latest">({
          secret: endpoint.secret as string,
          headers: d.headers,
          body: d.body,
        }),
      ),
    );
    expect(events.map((e) => [e.type, e.data.statement.statement_id])).toEqual([
      ["statement.created", "acc_demo_travel_001"],
      ["statement.pdf_available", "acc_demo_travel_001"],
    ]);
    expect(events[0]?.created_at.localeCompare(events[1]?.created_at ?? "")).toBeLessThanOrEqual(0);
    // The PDF event links the document, and the link works without a key.
    const link = events[1]?.data.statement.pdf?.url as string;
    const document = await fetch(link);
    expect(document.status).toBe(200);
    expect(await document.text()).toContain("%PDF-1.4");
    // The same events, listed.
    const listed: string[] = [];
    for await (const event of client.events.list()) listed.push(event.event_id);
    expect(listed.slice(0, 2)).toEqual(events.map((e) => e.event_id).reverse());
  });

  it("gets a receiver that failed twice its event on the third attempt", async () => {
    const client = createClient({ apiKey, version: "2026-10-13", baseUrl: service.base });
    const endpoint = await client.webhookEndpoints.create({
      url: `${receiver.url}/fail-twice/events`,
    });
    await operator("POST", "/import", { statements: [statement("acc_demo_travel", 2)] });
    const attempts = await waitFor(receiver.received, "/fail-twice/events", 3);
    expect(attempts).toHaveLength(3);
    const ids = new Set(attempts.map((a) => a.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    const event = await verifyWebhook<"2026-10-13">({
      secret: endpoint.secret as string,
      headers: attempts[2]?.headers ?? {},
      body: attempts[2]?.body ?? "",
    });
    expect(event.type).toBe("statement.created");
    let recorded: { status: string; response_status?: number }[] = [];
    for (let i = 0; i < 50 && recorded.length < 3; i++) {
      recorded = [];
      for await (const a of client.events.deliveryAttempts(event.event_id)) {
        if (a.webhook_endpoint_id === endpoint.webhook_endpoint_id) recorded.push(a);
      }
      await sleep(100);
    }
    expect(recorded.map((a) => [a.status, a.response_status])).toEqual([
      ["failed", 500],
      ["failed", 500],
      ["succeeded", 200],
    ]);
  });

  it("lists all 250 statements of an account through the client's iterator", async () => {
    const client = createClient({ apiKey, version: "2025-05-05", baseUrl: service.base });
    const ids: string[] = [];
    for await (const s of client.statements.list("cus_demo_ava", "acc_demo_everyday", {
      limit: 100,
    })) {
      ids.push(s.statement_id);
    }
    expect(ids).toEqual(
      Array.from({ length: 250 }, (_, i) => statement("acc_demo_everyday", i + 1).statement_id),
    );
  });

  it("runs the client README's five-line example as written", () => {
    const readme = readFileSync(path.join(ROOT, "packages/client/README.md"), "utf8");
    const example = /<!-- five-lines -->\n```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(example.trim().split("\n")).toHaveLength(5);
    const file = path.join(ROOT, "packages/client/.readme-example.ts");
    writeFileSync(file, example);
    try {
      const run = spawnSync(process.execPath, [file], {
        cwd: ROOT,
        env: { ...process.env, API_KEY: apiKey, BASE_URL: service.base },
        encoding: "utf8",
        timeout: PROCESS_TEST_MS,
      });
      expect(run.status, run.stderr).toBe(0);
      const lines = run.stdout.trim().split("\n");
      expect(lines).toHaveLength(250);
      expect(lines[0]).toBe(
        `acc_demo_everyday_001 ${statement("acc_demo_everyday", 1).period_end_date}`,
      );
    } finally {
      rmSync(file, { force: true });
    }
  });
});
