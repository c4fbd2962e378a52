// The operator's side of API keys: a partner's keys, whoever created them
// (GET /operator/v1/partners/{partner_id}/keys), a key created for a partner with chosen scopes
// (POST, the same path), and a key revoked with every key minted from it
// (DELETE /operator/v1/keys/{key_id}).
import { Hono } from "hono";
import * as z from "zod";
import { operatorActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { ApiError, invalidRequest, liveKeyLimitReached } from "../app/errors";
import {
  environmentFilter,
  requirePartner,
  usePartner,
  validationError,
} from "../app/operator-requests";
import { idPageQuery } from "../app/query";
import { readJsonBody } from "../app/read-body";
import { findKey } from "../db/find-by-id";
import { type ApiKeyRecord, keyStatus } from "../domain/key-record";
import { SCOPES } from "../domain/scopes";
import { revokeApiKey } from "./key-lifecycle";
import { createApiKey, keyOwner, listApiKeys } from "./key-store";

const CreateKey = z.strictObject({
  environment: z.enum(["sandbox", "production"]),
  scopes: z.array(z.enum(SCOPES)).max(SCOPES.length),
  name: z.string().min(1).max(255).optional(),
});

function keyJson(key: ApiKeyRecord, now: Date) {
  const by = key.createdBy;
  return {
    key_id: key.keyId,
    name: key.name,
    environment: key.environment,
    scopes: key.scopes,
    masked_key: key.masked,
    status: keyStatus(key, now),
    created_at: key.createdAt,
    created_by:
      by.type === "user"
        ? { type: "user", user_id: by.userId, email: by.email }
        : by.type === "key"
          ? { type: "key", key_id: by.keyId }
          : by.type === "operator"
            ? { type: "operator" }
            : null,
    parent_key_id: key.parentKeyId,
    expires_at: key.expiresAt,
    revoked_at: key.revokedAt,
    last_used_on: key.lastUsedOn,
  };
}

const keyNotFound = (keyId: string) =>
  new ApiError("NOT_FOUND_ERROR", `No such key: ${JSON.stringify(keyId)}`);

export const keyOperatorRoutes = new Hono<AppEnv>()
  // Every key of the partner, whoever created it, newest first.
  .get("/operator/v1/partners/:partner_id/keys", async (c) => {
    const partnerId = c.req.param("partner_id");
    const { limit, after } = idPageQuery.parse((name) => c.req.queries(name));
    const environment = environmentFilter(c.req.query("environment"));
    await requirePartner(c, partnerId);
    const page = await listApiKeys(c.get("db"), partnerId, environment, after, limit);
    if (!page) {
      throw invalidRequest(["starting_after must be a key id of this listing"], "starting_after");
    }
    const now = c.get("now")();
    return c.json({ data: page.keys.map((k) => keyJson(k, now)), has_more: page.hasMore });
  })

  .post("/operator/v1/partners/:partner_id/keys", async (c) => {
    const partnerId = c.req.param("partner_id");
    const body = await readJsonBody(c.req.raw);
    const parsed = CreateKey.safeParse(body);
    if (!parsed.success) throw validationError(parsed.error, body);
    await requirePartner(c, partnerId, "write");
    const { outcome, created } = await createApiKey(c.get("db"), {
      partnerId,
      shard: c.get("shard"),
      environment: parsed.data.environment,
      scopes: [...new Set(parsed.data.scopes)],
      name: parsed.data.name ?? null,
      actor: operatorActor(c),
      now: c.get("now")(),
    });
    if (outcome !== "created") throw liveKeyLimitReached();
    return c.json(created, 201);
  })

  // Revokes the key and, by default, every key minted from it (`?cascade=false`: that key only).
  .delete("/operator/v1/keys/:key_id", async (c) => {
    const keyId = c.req.param("key_id");
    const cascade = c.req.query("cascade") ?? "true";
    if (cascade !== "true" && cascade !== "false") {
      throw invalidRequest(['cascade must be "true" or "false"'], "cascade");
    }
    const found = await findKey(c.get("shards"), keyId);
    if (!found) throw keyNotFound(keyId);
    usePartner(c, found, "write");
    const owner = await keyOwner(c.get("db"), keyId);
    if (!owner) throw keyNotFound(keyId);
    await revokeApiKey(c.get("db"), {
      ...owner,
      keyId,
      cascade: cascade === "true",
      actor: operatorActor(c),
      now: c.get("now")(),
    });
    return c.body(null, 204);
  });
