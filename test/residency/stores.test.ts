// Every store of an `eu` partner's data is of its jurisdiction: its documents and logos go to the
// eu bucket and its signed links find them there; its request logs travel through the eu queue;
// the directory lists its users' addresses only by their keyed hash; its mail is kept (locally)
// on its shard, and sent without being kept by a deployment's mailer. A missing store of the
// jurisdiction fails or keeps nothing: it is never replaced by the global one.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PNG_LOGO } from "../../renderer/test/logo-fixtures";
import { addressHash } from "../../src/domain/address-hash";
import app from "../../src/index";
import { api, expectJson, operator, type StatementList } from "../support/api";
import { executionContext } from "../support/app-env";
import { inviteByOperator, outboxFor, seedTeam, signIn } from "../support/dashboard";
import { eventually } from "../support/eventually";
import {
  type Fixture,
  importData,
  monthlyStatement,
  pdfBytes,
  seedAccount,
  statementsPath,
  uniqueId,
} from "../support/fixtures";
import { keptQueue, loggedRequest, newRequestId } from "../support/request-logs";
import { SHARDS, shardDatabase, shardOf } from "../support/shards";
import { BASE, OPERATOR_TOKEN } from "../support/worker";

/** The test run's key of the directory's address hashes (vitest.config.ts). */
const DIRECTORY_SECRET = env.DIRECTORY_SECRET;
const base64 = (bytes: Uint8Array) =>
  btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));

/** Sends a request to the app with `overrides` over the test bindings; waits for its after-work. */
async function sendWithEnv(
  path: string,
  init: RequestInit,
  overrides: Record<string, unknown>,
): Promise<Response> {
  const ctx = executionContext();
  const res = await app.fetch(new Request(`${BASE}${path}`, init), { ...env, ...overrides }, ctx);
  await ctx.settled();
  return res;
}

const operatorInit = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/json" },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

/** The keys of a bucket's objects under `prefix`. */
async function keys(bucket: R2Bucket, prefix: string): Promise<string[]> {
  return (await bucket.list({ prefix })).objects.map((o) => o.key);
}

async function uploadPdf(statementId: string, text: string): Promise<void> {
  const res = await operator("PUT", `/statements/${statementId}/pdf`, pdfBytes(text), {
    "content-type": "application/pdf",
  });
  expect(res.status, await res.text()).toBe(204);
}

/** The statement's signed link, from the partner API. */
async function linkOf(f: Fixture): Promise<string> {
  const res = await api(statementsPath(f), { key: f.key, version: "latest" });
  const [row] = (await expectJson<StatementList>(res, 200)).data as { pdf?: { url: string } }[];
  const url = new URL(row?.pdf?.url ?? "");
  return url.pathname + url.search;
}

describe("an eu partner's documents", { timeout: 40_000 }, () => {
  it("are uploaded to the eu bucket alone, and its signed links serve them from there", async () => {
    const f = await seedAccount({ jurisdiction: "eu", statements: 1 });
    const statementId = `${f.accountId}_st_001`;
    await uploadPdf(statementId, "eu document");
    expect(await keys(env.PDFS_EU, `statements/${statementId}/`)).toHaveLength(1);
    expect(await keys(env.PDFS, `statements/${statementId}/`)).toEqual([]);
    const res = await api(await linkOf(f));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("eu document");
    const ranged = await api(await linkOf(f), { headers: { range: "bytes=0-4" } });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe("%PDF-");
  });

  it("keep a partner without a jurisdiction's documents in the default bucket", async () => {
    const f = await seedAccount({ statements: 1 });
    const statementId = `${f.accountId}_st_001`;
    await uploadPdf(statementId, "plain document");
    expect(await keys(env.PDFS, `statements/${statementId}/`)).toHaveLength(1);
    expect(await keys(env.PDFS_EU, `statements/${statementId}/`)).toEqual([]);
  });

  it("are rendered into the eu bucket, with a logo stored there and drawn from there", async () => {
    const f = await seedAccount({ jurisdiction: "eu", documents: "rendered" });
    const changed = await operator("PATCH", `/products/${f.merchantKey}`, {
      logo: { media_type: "image/png", data: base64(PNG_LOGO.bytes), alt_text: "EU Bank" },
    });
    expect(changed.status).toBe(200);
    const logoPrefix = `products/${encodeURIComponent(f.merchantKey)}/`;
    expect(await keys(env.PDFS_EU, logoPrefix)).toHaveLength(1);
    expect(await keys(env.PDFS, logoPrefix)).toEqual([]);

    const statement = monthlyStatement(f.accountId, 1);
    await importData({ statements: [statement] });
    const prefix = `statements/${statement.statement_id}/`;
    const stored = await eventually(
      () => keys(env.PDFS_EU, prefix),
      (found) => found.length === 1,
      30_000,
    );
    expect(stored).toHaveLength(1);
    expect(await keys(env.PDFS, prefix)).toEqual([]);
    const res = await api(await linkOf(f));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
  });

  it("are never put in the default bucket when the eu bucket is not bound: 500, nothing kept", async () => {
    const f = await seedAccount({ jurisdiction: "eu", statements: 1 });
    const statementId = `${f.accountId}_st_001`;
    const res = await sendWithEnv(
      `/operator/v1/statements/${statementId}/pdf`,
      {
        method: "PUT",
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/pdf" },
        body: pdfBytes("nowhere"),
      },
      { PDFS_EU: undefined },
    );
    expect(res.status).toBe(500);
    expect((await res.json()) as unknown).toMatchObject({ error: { type: "INTERNAL_ERROR" } });
    expect(await keys(env.PDFS, `statements/${statementId}/`)).toEqual([]);
    const row = await shardDatabase(await shardOf(f.partnerId))
      .prepare("SELECT pdf_key FROM statements WHERE statement_id = ?")
      .bind(statementId)
      .first<{ pdf_key: string | null }>();
    expect(row?.pdf_key).toBeNull();
  });
});

describe("an eu partner's request logs", () => {
  /** A partner API request of `f`, with both request-log queues kept (or `eu` left unbound). */
  async function recorded(f: Fixture, euBound = true) {
    const global = keptQueue();
    const eu = keptQueue();
    const res = await sendWithEnv(
      statementsPath(f),
      { headers: { authorization: `Bearer ${f.key}` } },
      { REQUEST_LOGS: global.queue, REQUEST_LOGS_EU: euBound ? eu.queue : undefined },
    );
    expect(res.status).toBe(200);
    const partnerOf = (sent: string[]) =>
      sent.flatMap((m) => (JSON.parse(m) as { partner_id: string }[]).map((r) => r.partner_id));
    return { global: partnerOf(global.sent), eu: partnerOf(eu.sent) };
  }

  it("travel through the eu queue, never the global one", async () => {
    const eu = await seedAccount({ jurisdiction: "eu" });
    expect(await recorded(eu)).toEqual({ global: [], eu: [eu.partnerId] });
    const plain = await seedAccount();
    expect(await recorded(plain)).toEqual({ global: [plain.partnerId], eu: [] });
  });

  it("are not kept at all when the eu queue is not bound", async () => {
    const eu = await seedAccount({ jurisdiction: "eu" });
    expect(await recorded(eu, false)).toEqual({ global: [], eu: [] });
  });

  it("are written to the partner's eu shard by the queue's consumer", async () => {
    const f = await seedAccount({ jurisdiction: "eu" });
    const requestId = newRequestId();
    const res = await api(statementsPath(f), {
      key: f.key,
      headers: { "x-request-id": requestId },
    });
    expect(res.status).toBe(200);
    const row = await loggedRequest(requestId);
    expect(row.partner_id).toBe(f.partnerId);
    const home = await shardOf(f.partnerId);
    for (const shard of SHARDS) {
      const found = await shardDatabase(shard)
        .prepare("SELECT count(*) AS n FROM request_logs WHERE request_id = ?")
        .bind(requestId)
        .first<{ n: number }>();
      expect(found?.n, shard).toBe(shard === home ? 1 : 0);
    }
  });
});

describe("an eu partner's dashboard users", () => {
  async function directoryRows(email: string, partnerId: string) {
    const plain = await env.DIRECTORY.prepare(
      "SELECT count(*) AS n FROM user_emails WHERE email = ? OR partner_id = ?",
    )
      .bind(email, partnerId)
      .first<{ n: number }>();
    const hashed = await env.DIRECTORY.prepare(
      "SELECT count(*) AS n FROM user_email_hashes WHERE email_hash = ? AND partner_id = ?",
    )
      .bind(await addressHash(DIRECTORY_SECRET, email), partnerId)
      .first<{ n: number }>();
    return { plain: plain?.n, hashed: hashed?.n };
  }

  it("are listed in the directory by their keyed hash alone, and still sign in", async () => {
    const f = await seedAccount({ jurisdiction: "eu" });
    const team = await seedTeam(f.partnerId);
    expect(await directoryRows(team.admin.email, f.partnerId)).toEqual({ plain: 0, hashed: 1 });
    const page = await team.admin.get("/dashboard/sandbox/keys");
    expect(page.status).toBe(200);
    // Invited from the dashboard, and removed: the hash goes with the user.
    const email = `${uniqueId("invitee")}@example.com`.toLowerCase();
    const invited = await team.admin.post("/dashboard/team", { email, role: "Developer" });
    expect(invited.status).toBe(303);
    expect(await directoryRows(email, f.partnerId)).toEqual({ plain: 0, hashed: 1 });
    const user = await shardDatabase(await shardOf(f.partnerId))
      .prepare("SELECT user_id FROM users WHERE email = ?")
      .bind(email)
      .first<{ user_id: string }>();
    const removed = await team.admin.post(`/dashboard/team/${user?.user_id}/remove`);
    expect(removed.status).toBe(303);
    expect(await directoryRows(email, f.partnerId)).toEqual({ plain: 0, hashed: 0 });
  });

  it("get mail the local outbox keeps on the partner's shard, the directory only numbering it", async () => {
    const f = await seedAccount({ jurisdiction: "eu" });
    const email = `${uniqueId("eu-user")}@example.com`.toLowerCase();
    await inviteByOperator(f.partnerId, email);
    const [mail] = await eventually(
      () => outboxFor(email),
      (found) => found.length === 1,
    );
    expect(mail?.subject).toContain("You are invited");
    const numbered = await env.DIRECTORY.prepare(
      "SELECT recipient, subject, text, shard FROM outbox WHERE id = ?",
    )
      .bind(mail?.id)
      .first<Record<string, string>>();
    expect(numbered).toEqual({
      recipient: await addressHash(DIRECTORY_SECRET, email),
      subject: "",
      text: "",
      shard: await shardOf(f.partnerId),
    });
    const kept = await shardDatabase(await shardOf(f.partnerId))
      .prepare("SELECT recipient, text FROM outbox WHERE id = ?")
      .bind(mail?.id)
      .first<Record<string, string>>();
    expect(kept?.recipient).toBe(email);
    expect(kept?.text).toContain("/dashboard/sign-in/confirm?token=");
    // The kept link signs in, and the sign-in's own mail is kept the same way.
    const client = await signIn(email);
    expect((await client.get("/dashboard/settings")).status).toBe(200);
  });

  it("get mail a deployment's mailer sends, kept by no store", async () => {
    const f = await seedAccount({ jurisdiction: "eu" });
    const email = `${uniqueId("sent")}@example.com`.toLowerCase();
    const sent: { to: string; subject: string }[] = [];
    const MAIL = { send: async (message: { to: string; subject: string }) => sent.push(message) };
    const res = await sendWithEnv(
      `/operator/v1/partners/${f.partnerId}/users`,
      operatorInit("POST", { email, role: "Admin" }),
      { MAILER: "cloudflare", MAIL },
    );
    expect(res.status).toBe(201);
    expect(sent.map((m) => m.to)).toEqual([email]);
    expect(Object.keys(sent[0] ?? {})).not.toContain("residency");
    expect(await outboxFor(email)).toEqual([]);
    const hash = await addressHash(DIRECTORY_SECRET, email);
    const numbered = await env.DIRECTORY.prepare(
      "SELECT count(*) AS n FROM outbox WHERE recipient IN (?, ?)",
    )
      .bind(email, hash)
      .first<{ n: number }>();
    expect(numbered?.n).toBe(0);
  });

  it("cannot be invited without DIRECTORY_SECRET: 500, and nothing is written", async () => {
    const f = await seedAccount({ jurisdiction: "eu" });
    const email = `${uniqueId("unlisted")}@example.com`.toLowerCase();
    const res = await sendWithEnv(
      `/operator/v1/partners/${f.partnerId}/users`,
      operatorInit("POST", { email, role: "Admin" }),
      { DIRECTORY_SECRET: undefined },
    );
    expect(res.status).toBe(500);
    expect(await directoryRows(email, f.partnerId)).toEqual({ plain: 0, hashed: 0 });
    const users = await shardDatabase(await shardOf(f.partnerId))
      .prepare("SELECT count(*) AS n FROM users WHERE email = ?")
      .bind(email)
      .first<{ n: number }>();
    expect(users?.n).toBe(0);
  });
});
