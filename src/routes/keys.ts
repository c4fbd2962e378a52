// POST /v2/keys: a new key for the caller's partner and environment, with exactly its scopes.
import { keyActor } from "../app/actor";
import { invalidRequest } from "../app/errors";
import { storeWithEffect } from "../app/idempotency";
import { route } from "../app/route";
import { schemas } from "../canonical/schemas";
import { atomically } from "../db/batch";
import { prepareApiKey } from "../keys/key-store";

/** Asking for scopes is refused with its reason rather than as an unknown field. */
function refuseScopes(body: Record<string, unknown>): void {
  if ("scopes" in body) {
    throw invalidRequest(
      ["scopes cannot be chosen: a new key has exactly the scopes of the key creating it"],
      "scopes",
    );
  }
}

export const createKey = route({
  method: "POST",
  path: "/v2/keys",
  summary: "Create an API key",
  scope: null,
  // An empty body means no options; a JSON `null` is a body, and not an object.
  body: { schema: schemas.CreateKeyRequest, required: false, refuse: refuseScopes },
  response: { status: 201, schema: schemas.ApiKey },
  async handler(c, { body: { name }, reply }) {
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
    const answer = reply(created);
    await atomically(db, [...writes(db), ...(await storeWithEffect(c, answer))]);
    return answer;
  },
});
