// POST /v2/keys: a new key for the caller's partner and environment, with exactly its scopes.
import { Hono } from "hono";
import { keyActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { invalidRequest } from "../app/errors";
import { storeWithEffect } from "../app/idempotency";
import { sendShaped, shape } from "../app/respond";
import { prepareApiKey } from "../db/keys";
import { atomically } from "../db/statement";
import { readRequest } from "./request-body";

/** Asking for scopes is refused with its reason rather than as an unknown field. */
function refuseScopes(body: Record<string, unknown>): void {
  if ("scopes" in body) {
    throw invalidRequest(
      ["scopes cannot be chosen: a new key has exactly the scopes of the key creating it"],
      "scopes",
    );
  }
}

export const keyRoutes = new Hono<AppEnv>().post("/v2/keys", async (c) => {
  // An empty body means no options; a JSON `null` is a body, and not an object.
  const { name } = await readRequest(c, "CreateKeyRequest", {
    allowEmpty: true,
    refuse: refuseScopes,
  });
  const caller = c.get("caller");
  const db = c.get("db");
  const { created, writes } = await prepareApiKey({
    partnerId: caller.partnerId,
    environment: caller.environment,
    scopes: caller.scopes,
    name: name ?? null,
    actor: keyActor(c),
    now: c.get("now")(),
  });
  // The key and its replayable response commit together: a retry never mints a second key.
  const shaped = shape(c, "ApiKey", created, 201);
  await atomically(db, [...writes(db), ...(await storeWithEffect(c, 201, shaped))]);
  return sendShaped(c, shaped, 201);
});
