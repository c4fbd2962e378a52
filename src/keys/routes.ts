// POST /v2/keys: a new key for the caller's partner and environment, with exactly its scopes.
import { keyActor } from "../app/actor";
import { invalidRequest, liveKeyLimitReached } from "../app/errors";
import { storeWithEffect } from "../app/idempotency";
import { unauthorized } from "../app/pipeline";
import { route } from "../app/route";
import { ApiKey, CreateKeyRequest } from "./api-schemas";
import { prepareApiKey } from "./key-store";

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
  operationId: "createApiKey",
  tag: "Keys",
  errors: [],
  scope: null,
  // An empty body means no options; a JSON `null` is a body, and not an object.
  body: { schema: CreateKeyRequest, required: false, refuse: refuseScopes },
  response: { status: 201, schema: ApiKey },
  async handler(c, { body: { name }, reply }) {
    const caller = c.get("caller");
    const prepared = await prepareApiKey({
      partnerId: caller.partnerId,
      shard: caller.shard,
      environment: caller.environment,
      scopes: caller.scopes,
      name: name ?? null,
      actor: keyActor(c),
      now: c.get("now")(),
    });
    // The key and its replayable response commit together: a retry never mints a second key, and
    // nothing is stored for a key the insert's conditions refused.
    const answer = reply(prepared.created);
    const alongside = await storeWithEffect(c, answer, prepared.stored);
    switch (await prepared.commit(c.get("db"), alongside)) {
      case "created":
        return answer;
      case "limit_reached":
        throw liveKeyLimitReached();
      case "creator_not_live":
        // Revoked or expired since this request was authenticated.
        throw unauthorized();
    }
  },
});
