// POST /v2/keys: a new key for the caller's partner and environment, with exactly its scopes.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { invalidRequest } from "../app/errors";
import { respond } from "../app/respond";
import { createApiKey } from "../db/keys";
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
  const created = await createApiKey(c.get("db"), {
    partnerId: caller.partnerId,
    environment: caller.environment,
    scopes: caller.scopes,
    name: name ?? null,
    now: c.get("now")(),
  });
  return respond(c, "ApiKey", created, 201);
});
