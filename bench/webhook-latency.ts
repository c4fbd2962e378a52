// Webhook delivery, locally, over `wrangler dev` (Miniflare runs the queue with the wrangler.toml
// consumer settings) and a loopback receiver:
// - latency: from the start of an operator import to the receipt of its `statement.created`
//   event, one import at a time (p50 / p90 / max);
// - recovery throughput: the events of an outage queued by one `POST …/recover`, from the request
//   to the receipt of the last, in events per second and as a share of the endpoint's throttle
//   (WEBHOOK_MAX_PER_SECOND), which is what paces it.
//   npm run bench:webhooks [-- --events 100 --recover 200 --max-per-second 10]
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { startLocalService } from "../test/support/node/local-service.ts";

const { values } = parseArgs({
  options: {
    events: { type: "string", default: "100" },
    recover: { type: "string", default: "200" },
    "max-per-second": { type: "string", default: "10" },
  },
});
const count = Number(values.events) || 100;
const recovered = Number(values.recover) || 200;
const perSecond = Number(values["max-per-second"]) || 10;

/** Arrival time of each statement's event, by path then statement id. */
const arrivals = new Map<string, Map<string, number>>();
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk: Buffer) => {
    body += chunk.toString();
  });
  req.on("end", () => {
    const statementId = (JSON.parse(body) as { data: { statement: { statement_id: string } } }).data
      .statement.statement_id;
    const path = req.url ?? "/";
    if (!arrivals.has(path)) arrivals.set(path, new Map());
    arrivals.get(path)?.set(statementId, performance.now());
    res.end();
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const address = server.address();
const port = typeof address === "object" && address ? address.port : 0;

const service = await startLocalService({
  vars: { WEBHOOK_ALLOW_LOOPBACK: "true", WEBHOOK_MAX_PER_SECOND: String(perSecond) },
});
try {
  const operator = (route: string, body: unknown) =>
    fetch(`${service.base}/operator/v1${route}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${service.operatorToken}`,
        "content-type": "application/json",
      },
      body: JSON.stringify(body),
    });
  await operator("/import", {
    partners: [
      {
        partner_id: "bench",
        name: "Bench",
        products: [{ merchant_key: "mk_bench", name: "Card", documents: "uploaded" }],
      },
    ],
    customers: [
      {
        customer_id: "cus_b",
        partner_id: "bench",
        environment: "sandbox",
        merchant_key: "mk_bench",
      },
    ],
    accounts: [
      { account_id: "acc_b", customer_id: "cus_b" },
      { account_id: "acc_r", customer_id: "cus_b" },
    ],
  });
  const key = (await (
    await operator("/partners/bench/keys", { environment: "sandbox", scopes: ["ACCOUNT_READ"] })
  ).json()) as {
    api_key: string;
  };
  const partner = (path: string, body?: unknown, method = "POST") =>
    fetch(`${service.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key.api_key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const created = await partner("/v2/webhook_endpoints", { url: `http://127.0.0.1:${port}/hook` });
  if (created.status !== 201)
    throw new Error(`endpoint: ${created.status} ${await created.text()}`);
  const live = (await created.json()) as { webhook_endpoint_id: string };

  const latencies: number[] = [];
  const hook = () => arrivals.get("/hook") ?? new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const statementId = `st_b_${i}`;
    const started = performance.now();
    await operator("/import", {
      statements: [
        {
          statement_id: statementId,
          account_id: "acc_b",
          period_end_date: new Date(Date.UTC(2020, 0, 1 + i)).toISOString(),
        },
      ],
    });
    const deadline = started + 30_000;
    while (!hook().has(statementId) && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const arrived = hook().get(statementId);
    if (arrived === undefined) throw new Error(`event of ${statementId} never arrived`);
    latencies.push(arrived - started);
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  console.log(
    `import → receipt over ${count} events: p50 ${at(0.5).toFixed(0)} ms, p90 ${at(0.9).toFixed(0)} ms, ` +
      `max ${(latencies.at(-1) ?? 0).toFixed(0)} ms`,
  );

  // An outage: the events happen while no endpoint takes them; one call recovers them all.
  await partner(`/v2/webhook_endpoints/${live.webhook_endpoint_id}`, undefined, "DELETE");
  const since = new Date(Date.now() - 1000).toISOString();
  for (let i = 0; i < recovered; i += 100) {
    await operator("/import", {
      statements: Array.from({ length: Math.min(100, recovered - i) }, (_, j) => ({
        statement_id: `st_r_${i + j}`,
        account_id: "acc_r",
        period_end_date: new Date(Date.UTC(2000, 0, 1 + i + j)).toISOString(),
      })),
    });
  }
  const endpoint = (await (
    await partner("/v2/webhook_endpoints", {
      url: `http://127.0.0.1:${port}/recovered`,
      enabled_events: ["statement.created"],
    })
  ).json()) as { webhook_endpoint_id: string };
  const started = performance.now();
  const answer = (await (
    await partner(`/v2/webhook_endpoints/${endpoint.webhook_endpoint_id}/recover`, { since })
  ).json()) as { queued: number };
  if (answer.queued !== recovered) throw new Error(`queued ${answer.queued} of ${recovered}`);
  const got = () => arrivals.get("/recovered")?.size ?? 0;
  const deadline = started + (recovered / perSecond) * 1000 * 3 + 60_000;
  while (got() < recovered && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (got() < recovered) throw new Error(`only ${got()} of ${recovered} recovered events arrived`);
  const last = Math.max(...(arrivals.get("/recovered")?.values() ?? []));
  const seconds = (last - started) / 1000;
  const rate = recovered / seconds;
  console.log(
    `recovery of ${recovered} events through a throttle of ${perSecond}/s: ${seconds.toFixed(1)} s, ` +
      `${rate.toFixed(1)} events/s (${((rate / perSecond) * 100).toFixed(0)}% of the throttle)`,
  );
} finally {
  await service.stop();
  server.close();
}
