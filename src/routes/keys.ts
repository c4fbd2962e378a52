// POST /v2/keys: a new key for the caller's partner and environment, with exactly its scopes.
import { Hono } from "hono";
import { keyActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { invalidRequest, liveKeyLimitReached } from "../app/errors";
import { storeWithEffect } from "../app/idempotency";
import { unauthorized } from "../app/pipeline";
import { sendShaped, shape } from "../app/respond";
import { prepareApiKey } from "../db/keys";
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
  const prepared = await prepareApiKey({
    partnerId: caller.partnerId,
    environment: caller.environment,
    scopes: caller.scopes,
    name: name ?? null,
    actor: keyActor(c),
    now: c.get("now")(),
  });
  // The key and its replayable response commit together: a retry never mints a second key, and
  // nothing is stored for a key the insert's conditions refused.
  const shaped = shape(c, "ApiKey", prepared.created, 201);
  const alongside = await storeWithEffect(c, 201, shaped, prepared.stored);
  switch (await prepared.commit(c.get("db"), alongside)) {
    case "created":
      return sendShaped(c, shaped, 201);
    case "limit_reached":
      throw liveKeyLimitReached();
    case "creator_not_live":
      // Revoked or expired since this request was authenticated.
      throw unauthorized();
  }
});
