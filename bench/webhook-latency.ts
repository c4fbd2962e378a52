// Webhook delivery latency, locally: from the start of an operator import to the receipt of its
// `statement.created` event by a loopback receiver, one import at a time, over `wrangler dev`
// (Miniflare runs the queue with the wrangler.toml consumer settings). Prints p50 / p90 / max.
//   npm run bench:webhooks [-- --events 100]
import { createServer } from "node:http";
import { startLocalService } from "../test/support/node/local-service.ts";

const count = Number(process.argv[process.argv.indexOf("--events") + 1]) || 100;
const arrivals = new Map<string, number>();
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk: Buffer) => {
    body += chunk.toString();
  });
  req.on("end", () => {
    const statementId = (JSON.parse(body) as { data: { statement: { statement_id: string } } }).data
      .statement.statement_id;
    arrivals.set(statementId, performance.now());
    res.end();
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const address = server.address();
const port = typeof address === "object" && address ? address.port : 0;

const service = await startLocalService({ vars: { WEBHOOK_ALLOW_LOOPBACK: "true" } });
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
        products: [{ merchant_key: "mk_bench", name: "Card" }],
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
    accounts: [{ account_id: "acc_b", customer_id: "cus_b" }],
  });
  const key = (await (
    await operator("/partners/bench/keys", { environment: "sandbox", scopes: ["ACCOUNT_READ"] })
  ).json()) as {
    api_key: string;
  };
  const created = await fetch(`${service.base}/v2/webhook_endpoints`, {
    method: "POST",
    headers: { authorization: `Bearer ${key.api_key}`, "content-type": "application/json" },
    body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook` }),
  });
  if (created.status !== 201)
    throw new Error(`endpoint: ${created.status} ${await created.text()}`);

  const latencies: number[] = [];
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
    while (!arrivals.has(statementId) && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const arrived = arrivals.get(statementId);
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
} finally {
  await service.stop();
  server.close();
}
