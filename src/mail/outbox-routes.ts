// GET /operator/v1/outbox: the local outbox (MAILER=outbox only), which tests and `npm start` read
// sign-in links from. Anywhere else the route does not exist.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { keyedAddress } from "../app/directory-address";
import { invalidRequest, routeNotFound } from "../app/errors";
import { normalizeEmail } from "../domain/user";
import { readOutbox } from "./outbox";

export const outboxOperatorRoutes = new Hono<AppEnv>().get("/operator/v1/outbox", async (c) => {
  if (c.env.MAILER !== "outbox") {
    throw routeNotFound(c.req.method, c.req.path);
  }
  const to = c.req.query("to");
  const after = Number(c.req.query("after") ?? "0");
  if (!Number.isSafeInteger(after) || after < 0) {
    throw invalidRequest(["after must be a mail id"], "after");
  }
  const address = to === undefined ? null : (normalizeEmail(to) ?? to);
  const shards = c.get("shards");
  const mail = await readOutbox(shards.directory(), shards, {
    to: address,
    // Mail kept on a jurisdictional partner's shard is numbered under the address's keyed hash.
    toHash: address === null ? null : await keyedAddress(c.env, address),
    afterId: after,
    limit: 100,
  });
  return c.json({
    data: mail.map((m) => ({
      id: m.id,
      to: m.to,
      subject: m.subject,
      text: m.text,
      created_at: m.createdAt,
    })),
  });
});
