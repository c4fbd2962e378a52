// Requests the request log leaves out: a request whose key failed authentication (it has no
// partner), every request when the REQUEST_LOGS binding is absent, and every request outside the
// partner API (the reference, the operator API, the dashboard), which no API key authenticates.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bundle } from "../../src/bundle";
import type { RequestLogRecord } from "../../src/domain/request-log";
import { createApp } from "../../src/index";
import { api } from "../support/api";
import { executionContext } from "../support/app-env";
import { seedAccount, statementsPath } from "../support/fixtures";
import {
  keptQueue,
  loggedRequest,
  newRequestId,
  requestIdOf,
  storedRequests,
} from "../support/request-logs";
import { BASE, OPERATOR_TOKEN } from "../support/worker";

/** The service's app, of its own: its isolate state (usage counters, records) starts empty. */
const app = createApp(bundle);

describe("requests that are not recorded", () => {
  it("leaves out a request that failed authentication: it has no partner", async () => {
    const f = await seedAccount();
    const refused = newRequestId();
    const res = await api(statementsPath(f), {
      key: `${f.key.slice(0, -4)}AAAA`,
      headers: { "x-request-id": refused },
    });
    expect(res.status).toBe(401);
    // A later request of the same caller is written; the refused one never is.
    const later = await api(statementsPath(f), { key: f.key });
    await loggedRequest(requestIdOf(later));
    expect(await storedRequests(refused)).toEqual([]);
  });

  it("records nothing without the REQUEST_LOGS binding", async () => {
    const f = await seedAccount();
    const id = newRequestId();
    const ctx = executionContext();
    const res = await app.fetch(
      new Request(`${BASE}${statementsPath(f)}`, {
        headers: { authorization: `Bearer ${f.key}`, "x-request-id": id },
      }),
      { ...env, REQUEST_LOGS: undefined },
      ctx,
    );
    expect(res.status).toBe(200);
    await ctx.settled();
    const later = await api(statementsPath(f), { key: f.key });
    await loggedRequest(requestIdOf(later));
    expect(await storedRequests(id)).toEqual([]);
  });
});

describe("surfaces outside the partner API", () => {
  it("send nothing to the request log: the reference, the operator API, the dashboard", async () => {
    const f = await seedAccount({ statements: 1 });
    const { queue, sent } = keptQueue();
    const ctx = executionContext();
    const send = (path: string, headers: Record<string, string> = {}) =>
      app.fetch(new Request(`${BASE}${path}`, { headers }), { ...env, REQUEST_LOGS: queue }, ctx);
    const answers = [
      await send("/changelog"),
      await send(`/operator/v1/partners/${f.partnerId}`, {
        authorization: `Bearer ${OPERATOR_TOKEN}`,
      }),
      await send("/dashboard/sign-in"),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
    // A partner API request in the same context is sent: the queue is the one in use.
    const read = await send(statementsPath(f), { authorization: `Bearer ${f.key}` });
    expect(read.status).toBe(200);
    await ctx.settled();
    const ids = sent.flatMap((m) => (JSON.parse(m) as RequestLogRecord[]).map((r) => r.request_id));
    expect(ids).toEqual([requestIdOf(read)]);
  });
});
