// An `eu` partner's whole life, then a search of every store: imported onto an eu shard, its
// statements rendered and one uploaded, read through the API with its PDF links, its webhooks
// delivered, its dashboard signed into, its request logs written, then moved to a second eu shard
// (DB_03, which only the test run binds) and its old copy retired. Every table of every database
// and every object of every bucket is then read: nothing of the partner is anywhere but in eu
// stores, the directory holds its id only where it routes, and the global queues carried only
// the identifiers docs/residency.md lists.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PNG_LOGO } from "../../renderer/test/logo-fixtures";
import { shardJurisdiction } from "../../src/db/shards";
import app from "../../src/index";
import { api, expectJson, operator, type StatementList } from "../support/api";
import { executionContext } from "../support/app-env";
import { outboxFor, signIn } from "../support/dashboard";
import { eventually } from "../support/eventually";
import { monthlyStatement, newAccountImport, pdfBytes, uniqueId } from "../support/fixtures";
import { loggedRequest, newRequestId } from "../support/request-logs";
import { SHARDS, shardDatabase, shardOf } from "../support/shards";
import { RECEIVER, type Receiver, startReceiver } from "../support/webhook-receiver";
import { type Fetcher, OPERATOR_TOKEN, request } from "../support/worker";

let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver();
});
afterAll(() => receiver.restore());

/** Every message the partner's requests sent to a queue, by queue binding. */
const sent: { queue: string; body: unknown }[] = [];

/** A queue binding that keeps what is sent to it, then sends it on to the real queue. */
function tee(name: string): Queue {
  const real = (env as unknown as Record<string, Queue>)[name] as Queue;
  return {
    send(body: unknown, options?: QueueSendOptions) {
      sent.push({ queue: name, body });
      return real.send(body, options);
    },
    sendBatch(messages: Iterable<MessageSendRequest>, options?: QueueSendBatchOptions) {
      for (const message of messages) sent.push({ queue: name, body: message.body });
      return real.sendBatch(messages, options);
    },
  } as Queue;
}

const QUEUES = ["REQUEST_LOGS", "REQUEST_LOGS_EU", "WEBHOOK_DELIVERIES", "STATEMENT_RENDERS"];
const lifeEnv = { ...env, ...Object.fromEntries(QUEUES.map((name) => [name, tee(name)])) };
const pending: Promise<void>[] = [];

/** The service, with its queue bindings watched; each request's after-work is awaited at the end. */
const lifeFetch: Fetcher = async (req) => {
  const ctx = executionContext();
  const res = await app.fetch(req, lifeEnv, ctx);
  pending.push(ctx.settled());
  return res;
};

function lifeOperator(method: string, path: string, body?: unknown, type = "application/json") {
  return request(
    `/operator/v1${path}`,
    {
      method,
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": type },
      ...(body === undefined
        ? {}
        : { body: body instanceof Uint8Array ? body : JSON.stringify(body) }),
    },
    lifeFetch,
  );
}

/** Repeats the partner's move call until it is done (its old copy's retirement brought forward). */
async function finishMove(partnerId: string, to: string): Promise<void> {
  const path = `/partners/${partnerId}/move`;
  let phase = "";
  for (let calls = 0; phase !== "switched" && calls < 50; calls++) {
    phase = (await expectJson<{ phase: string }>(await operator("POST", path, { shard: to }), 202))
      .phase;
  }
  expect(phase).toBe("switched");
  await env.DIRECTORY.prepare(
    "UPDATE partner_moves SET retire_after = ? WHERE partner_id = ? AND finished_at IS NULL",
  )
    .bind(new Date(Date.now() - 1000).toISOString(), partnerId)
    .run();
  const done = await operator("POST", path, { shard: to });
  expect((await expectJson<{ phase: string }>(done, 200)).phase).toBe("done");
}

/** Every row of every table of a database, as text, by table. */
async function everyRow(db: D1Database): Promise<Map<string, string[]>> {
  const { results: tables } = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' " +
        "AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
    )
    .all<{ name: string }>();
  const rows = new Map<string, string[]>();
  for (const { name } of tables) {
    const { results } = await db.prepare(`SELECT * FROM "${name}"`).all();
    rows.set(
      name,
      results.map((row) => JSON.stringify(row)),
    );
  }
  return rows;
}

/** Every object of a bucket: its key and its bytes as text. */
async function everyObject(bucket: R2Bucket): Promise<{ key: string; text: string }[]> {
  const objects: { key: string; text: string }[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ cursor });
    for (const { key } of page.objects) {
      const body = await bucket.get(key);
      objects.push({ key, text: body ? await body.text() : "" });
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return objects;
}

/** Where any of `markers` occurs: `table` entries of the rows holding it. */
function found(rows: Map<string, string[]>, markers: readonly string[]): string[] {
  const where: string[] = [];
  for (const [table, texts] of rows) {
    for (const marker of markers) {
      if (texts.some((text) => text.includes(marker))) where.push(`${table}: ${marker}`);
    }
  }
  return where;
}

describe("an eu partner's whole life", () => {
  it("leaves its data only in the stores of its jurisdiction", { timeout: 180_000 }, async () => {
    const logLines: string[] = [];
    const capture = (...args: unknown[]) => void logLines.push(args.map(String).join(" "));
    const spies = (["log", "warn", "error"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation(capture),
    );

    // Import: a new eu partner on DB_02, its product rendering documents, with statements.
    const { ids, payload } = newAccountImport({
      shard: "02",
      jurisdiction: "eu",
      documents: "rendered",
      statements: 2,
    });
    const partnerName = `Residency Bank ${uniqueId("name")}`;
    const holder = `Ana ${uniqueId("holder")}`;
    const partner = payload.partners?.[0] as NonNullable<typeof payload.partners>[number];
    partner.name = partnerName;
    const customer = payload.customers?.[0] as NonNullable<typeof payload.customers>[number];
    customer.authorized_users = [{ authorized_user_id: uniqueId("au"), name: holder }];
    expect((await lifeOperator("POST", "/import", payload)).status).toBe(200);
    expect(await shardOf(ids.partnerId)).toBe("02");

    const keyRes = await lifeOperator("POST", `/partners/${ids.partnerId}/keys`, {
      environment: "sandbox",
      scopes: ["ACCOUNT_READ", "AUTHORIZED_USER_READ"],
    });
    const { api_key: key, key_id: keyId } = await expectJson<{ api_key: string; key_id: string }>(
      keyRes,
      201,
    );
    const logo = await lifeOperator("PATCH", `/products/${ids.merchantKey}`, {
      logo: {
        media_type: "image/png",
        data: btoa(Array.from(PNG_LOGO.bytes, (b) => String.fromCharCode(b)).join("")),
        alt_text: `${partnerName} logo`,
      },
    });
    expect(logo.status).toBe(200);

    // Webhooks: an endpoint (created idempotently), then statements it hears of.
    const hookPath = `/ok/${uniqueId("hook")}`;
    const endpoint = await api("/v2/webhook_endpoints", {
      key,
      method: "POST",
      body: { url: `${RECEIVER}${hookPath}` },
      headers: { "idempotency-key": uniqueId("idem") },
      fetch: lifeFetch,
    });
    expect(endpoint.status).toBe(201);
    const more = [3, 4].map((month) => monthlyStatement(ids.accountId, month));
    expect((await lifeOperator("POST", "/import", { statements: more })).status).toBe(200);

    // Renders, and one document uploaded over its render.
    const path = `/v2/customers/${ids.customerId}/accounts/${ids.accountId}/statements`;
    const listing = await eventually(
      async () => {
        const res = await api(path, { key, version: "latest", fetch: lifeFetch });
        return (await expectJson<StatementList>(res, 200)).data as {
          statement_id: string;
          pdf?: { url: string };
        }[];
      },
      (rows) => rows.length === 4 && rows.every((row) => row.pdf !== undefined),
      60_000,
    );
    expect(listing.every((row) => row.pdf)).toBe(true);
    const uploadMarker = `uploaded for ${uniqueId("pdf")}`;
    const uploaded = listing[0]?.statement_id as string;
    const put = await lifeOperator(
      "PUT",
      `/statements/${uploaded}/pdf`,
      pdfBytes(uploadMarker),
      "application/pdf",
    );
    expect(put.status).toBe(204);

    // Reads: statements, PDFs by link, the customer with its holder, accounts, events; a link.
    const readId = newRequestId();
    const read = await api(path, {
      key,
      version: "latest",
      headers: { "x-request-id": readId },
      fetch: lifeFetch,
    });
    const rows = (await expectJson<StatementList>(read, 200)).data as { pdf: { url: string } }[];
    for (const row of rows) {
      const url = new URL(row.pdf.url);
      expect((await api(url.pathname + url.search, { fetch: lifeFetch })).status).toBe(200);
    }
    const customerRead = await api(`/v2/customers/${ids.customerId}`, { key, fetch: lifeFetch });
    expect(await customerRead.text()).toContain(holder);
    const accounts = await api(`/v2/customers/${ids.customerId}/accounts`, {
      key,
      fetch: lifeFetch,
    });
    expect(accounts.status).toBe(200);
    const partnerCustomerId = `pc-${uniqueId("link")}`;
    const linked = await api(`/v2/customers/${ids.customerId}/link`, {
      key,
      method: "POST",
      body: { partner_customer_id: partnerCustomerId },
      headers: { "idempotency-key": uniqueId("idem") },
      fetch: lifeFetch,
    });
    expect(linked.status).toBe(200);
    expect((await api("/v2/events?limit=100", { key, fetch: lifeFetch })).status).toBe(200);
    const hooks = await receiver.waitFor(hookPath, 4, 30_000);
    expect(hooks.length).toBeGreaterThanOrEqual(4);

    // The dashboard: an Admin invited by the operator signs in, looks around, invites a colleague.
    const adminEmail = `${uniqueId("admin")}@example.com`.toLowerCase();
    const colleague = `${uniqueId("colleague")}@example.com`.toLowerCase();
    const invite = await lifeOperator("POST", `/partners/${ids.partnerId}/users`, {
      email: adminEmail,
    });
    expect(invite.status).toBe(201);
    await Promise.all(pending.splice(0));
    const admin = await signIn(adminEmail);
    for (const page of ["/dashboard/settings", "/dashboard/sandbox/logs", "/dashboard/team"]) {
      expect((await admin.get(page)).status, page).toBe(200);
    }
    const invited = await admin.post("/dashboard/team", { email: colleague, role: "Developer" });
    expect(invited.status).toBe(303);
    expect((await loggedRequest(readId)).partner_id).toBe(ids.partnerId);

    // A move to the second eu shard, its old copy retired; everything keeps working there.
    await finishMove(ids.partnerId, "03");
    expect(await shardOf(ids.partnerId)).toBe("03");
    const afterId = newRequestId();
    const after = await api(path, { key, headers: { "x-request-id": afterId }, fetch: lifeFetch });
    expect(after.status).toBe(200);
    await loggedRequest(afterId);
    const again = await signIn(adminEmail);
    expect(await (await again.get("/dashboard/settings")).text()).toContain(partnerName);
    expect(await outboxFor(colleague)).toHaveLength(1);
    await Promise.all(pending.splice(0));
    for (const spy of spies) spy.mockRestore();

    // What is the partner's: its ids, names, addresses, texts and the URL of its endpoint.
    const statementIds = [...(payload.statements ?? []), ...more].map((s) => s.statement_id);
    const personal = [
      partnerName,
      holder,
      partnerCustomerId,
      adminEmail,
      colleague,
      uploadMarker,
      hookPath,
      ids.merchantKey,
      ids.customerId,
      ids.accountId,
      keyId,
      ...statementIds,
    ];
    const everything = [ids.partnerId, ...personal];

    // Every table of every database.
    const stores = new Map<string, Map<string, string[]>>([
      ["DIRECTORY", await everyRow(env.DIRECTORY)],
    ]);
    for (const shard of SHARDS) stores.set(`DB_${shard}`, await everyRow(shardDatabase(shard)));
    for (const shard of SHARDS) {
      const where = found(stores.get(`DB_${shard}`) as Map<string, string[]>, everything);
      if (shardJurisdiction(env, shard) === "eu") continue;
      expect(where, `DB_${shard} (${shardJurisdiction(env, shard)})`).toEqual([]);
    }
    // Its new home holds it all: the search above is not looking in the wrong place.
    const home = found(stores.get("DB_03") as Map<string, string[]>, everything);
    for (const table of ["customers", "statements", "events", "request_logs", "users"]) {
      expect(
        home.some((entry) => entry.startsWith(`${table}:`)),
        table,
      ).toBe(true);
    }
    // The directory, which has no jurisdiction: the partner's id where it routes, nothing else.
    const directory = stores.get("DIRECTORY") as Map<string, string[]>;
    expect(found(directory, personal)).toEqual([]);
    expect(found(directory, [ids.partnerId]).sort()).toEqual(
      ["partner_moves", "partner_shards", "user_email_hashes"].map(
        (table) => `${table}: ${ids.partnerId}`,
      ),
    );

    // Every object of every bucket: its documents and logo in the eu bucket, none elsewhere.
    const euObjects = await everyObject(env.PDFS_EU);
    for (const id of statementIds) {
      expect(
        euObjects.some((o) => o.key.startsWith(`statements/${id}/`)),
        id,
      ).toBe(true);
    }
    expect(euObjects.some((o) => o.key.includes(encodeURIComponent(ids.merchantKey)))).toBe(true);
    expect(euObjects.some((o) => o.text.includes(uploadMarker))).toBe(true);
    for (const object of await everyObject(env.PDFS)) {
      for (const marker of everything) {
        expect(object.key.includes(marker) || object.text.includes(marker), object.key).toBe(false);
      }
    }

    // The global queues carried identifiers only; its request logs went through the eu queue.
    const records = (queue: string) =>
      sent
        .filter((m) => m.queue === queue)
        .flatMap((m) => JSON.parse(m.body as string) as { partner_id: string }[]);
    expect(records("REQUEST_LOGS").filter((r) => r.partner_id === ids.partnerId)).toEqual([]);
    expect(records("REQUEST_LOGS_EU").some((r) => r.partner_id === ids.partnerId)).toBe(true);
    const IDENTIFIERS: Record<string, string[]> = {
      WEBHOOK_DELIVERIES: ["endpoint_id", "event_id", "generation", "partner_id", "shard"],
      STATEMENT_RENDERS: ["environment", "generation", "partner_id", "shard", "statement_id"],
    };
    for (const [queue, fields] of Object.entries(IDENTIFIERS)) {
      const bodies = sent.filter((m) => m.queue === queue).map((m) => m.body as object);
      expect(bodies.length, queue).toBeGreaterThan(0);
      for (const body of bodies) {
        expect(Object.keys(body).sort(), queue).toEqual(fields);
        const text = JSON.stringify(body);
        for (const marker of [partnerName, holder, adminEmail, colleague, hookPath]) {
          expect(text.includes(marker), queue).toBe(false);
        }
      }
    }

    // The Worker's own log lines (outside the local outbox's, a development stand-in) name
    // requests, routes, keys and shards, never the partner's customers, people or documents.
    const logged = logLines.filter((line) => !line.startsWith("[outbox]"));
    expect(logged.length).toBeGreaterThan(0);
    for (const marker of personal.filter((m) => m !== keyId)) {
      expect(
        logged.filter((line) => line.includes(marker)),
        marker,
      ).toEqual([]);
    }
  });
});
