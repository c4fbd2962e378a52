// Operator endpoints for a partner's dashboard side: its users (inviting the first Admin), its
// API keys with their creators and life, its audit log, and the local outbox.
import { Hono } from "hono";
import * as z from "zod";
import { operatorActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { keyedAddress, partnerDirectory } from "../app/directory-address";
import { ApiError, invalidRequest, routeNotFound } from "../app/errors";
import {
  environmentFilter,
  partnerNotFound,
  requirePartner,
  usePartnerShard,
  validationError,
} from "../app/operator-requests";
import { idPageQuery } from "../app/query";
import { readJsonBody } from "../app/read-body";
import { mailInvitation } from "../dashboard/mail";
import { readAuditPage } from "../db/audit";
import { readPartner } from "../db/partners";
import { inviteUser, listUsers } from "../db/users";
import { type AuditEntry, auditSequence } from "../domain/audit";
import { type ApiKeyRecord, keyStatus } from "../domain/key-record";
import { ROLES } from "../domain/permissions";
import { normalizeEmail, type User } from "../domain/user";
import { listApiKeys } from "../keys";
import { readOutbox } from "../mail/outbox";

const InviteBody = z.strictObject({
  email: z.string().max(320),
  role: z.enum(ROLES).default("Admin"),
});

function userJson(user: User) {
  return {
    user_id: user.userId,
    partner_id: user.partnerId,
    email: user.email,
    role: user.role,
    created_at: user.createdAt,
    last_signed_in_at: user.lastSignedInAt,
  };
}

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

function auditJson(entry: AuditEntry) {
  return {
    id: entry.id,
    occurred_at: entry.occurredAt,
    actor: entry.actor,
    action: entry.action,
    environment: entry.environment,
    target: entry.target,
    details: entry.details,
    ip: entry.ip,
  };
}

export const operatorPartnerRoutes = new Hono<AppEnv>()
  // The partner, with the shard it lives on (the only answer that names one) and the jurisdiction
  // its data stays in.
  .get("/operator/v1/partners/:partner_id", async (c) => {
    const partnerId = c.req.param("partner_id");
    await usePartnerShard(c, partnerId);
    const partner = await readPartner(c.get("db"), partnerId);
    if (!partner) throw partnerNotFound(partnerId);
    return c.json({
      partner_id: partner.partnerId,
      name: partner.name,
      shard: c.get("shard"),
      jurisdiction: partner.jurisdiction,
      saved_versions: {
        sandbox: partner.savedVersionSandbox,
        production: partner.savedVersionProduction,
      },
      products: partner.products.map((p) => ({ merchant_key: p.merchantKey, name: p.name })),
      created_at: partner.createdAt,
    });
  })

  // Invites a user (by default the partner's first Admin) and mails the first sign-in link.
  .post("/operator/v1/partners/:partner_id/users", async (c) => {
    const partnerId = c.req.param("partner_id");
    const body = await readJsonBody(c.req.raw);
    const parsed = InviteBody.safeParse(body);
    if (!parsed.success) throw validationError(parsed.error, body);
    const email = normalizeEmail(parsed.data.email);
    if (!email) throw invalidRequest(["email: not an email address"], "email");
    const name = await requirePartner(c, partnerId, "write");
    const user = await inviteUser(c.get("db"), partnerDirectory(c), {
      partnerId,
      email,
      role: parsed.data.role,
      actor: operatorActor(c),
      now: c.get("now")(),
    });
    if (!user) throw new ApiError("CONFLICT_ERROR", `${email} is already a user of ${partnerId}.`);
    mailInvitation(c, user, name, "The operator");
    return c.json(userJson(user), 201);
  })

  .get("/operator/v1/partners/:partner_id/users", async (c) => {
    const partnerId = c.req.param("partner_id");
    await requirePartner(c, partnerId);
    return c.json({ data: (await listUsers(c.get("db"), partnerId)).map(userJson) });
  })

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

  // The partner's audit log, newest first; `starting_after` is an entry id (`audit_…`).
  .get("/operator/v1/partners/:partner_id/audit", async (c) => {
    const partnerId = c.req.param("partner_id");
    const { limit, after } = idPageQuery.parse((name) => c.req.queries(name));
    const before = after === null ? null : auditSequence(after);
    if (after !== null && before === null) {
      throw invalidRequest(["starting_after must be an audit entry id"], "starting_after");
    }
    await requirePartner(c, partnerId);
    const page = await readAuditPage(c.get("db"), partnerId, before, limit);
    return c.json({ data: page.entries.map(auditJson), has_more: page.hasMore });
  })

  // The local outbox (MAILER=outbox only): what tests and `npm start` read sign-in links from.
  .get("/operator/v1/outbox", async (c) => {
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
