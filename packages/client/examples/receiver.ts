// A webhook receiver: verify each delivery over its raw body, then handle each event once.
//   WEBHOOK_SECRET=whsec_… PORT=4242 node packages/client/examples/receiver.ts
import { createServer } from "node:http";
import { verifyWebhook, WebhookVerificationError } from "@card-statements/client";

const secret = process.env.WEBHOOK_SECRET ?? "";
const port = Number(process.env.PORT ?? 4242);
const handled = new Set<string>(); // use your database: delivery is at least once

const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    // The raw bytes, exactly as sent: verify before parsing.
    const event = await verifyWebhook({
      secret,
      headers: req.headers,
      body: Buffer.concat(chunks),
    });
    if (!handled.has(event.event_id)) {
      handled.add(event.event_id);
      console.log(`${event.type} ${event.event_id} for ${event.data.statement.statement_id}`);
    }
    res.writeHead(204).end(); // answer 2xx quickly; do slow work after
  } catch (err) {
    if (!(err instanceof WebhookVerificationError)) throw err;
    console.log(`refused: ${err.message}`);
    res.writeHead(400).end();
  }
});
server.listen(port, "127.0.0.1", () =>
  console.log(`Receiving on http://127.0.0.1:${port}/webhooks`),
);
