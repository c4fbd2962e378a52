// The operator's side of partners: a partner, with the shard it lives on and its jurisdiction
// (GET /operator/v1/partners/{partner_id}), and its dashboard users, listed or invited
// (…/partners/{partner_id}/users). The operator invites a partner's first Admin; the invitation
// mails the first sign-in link.
import { Hono } from "hono";
import * as z from "zod";
import { operatorActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { partnerDirectory } from "../app/directory-address";
import { ApiError, invalidRequest } from "../app/errors";
import {
  partnerNotFound,
  requirePartner,
  usePartnerShard,
  validationError,
} from "../app/operator-requests";
import { readJsonBody } from "../app/read-body";
import { mailInvitation } from "../dashboard/mail";
import { readPartner } from "../db/partners";
import { inviteUser, listUsers } from "../db/users";
import { ROLES } from "../domain/permissions";
import { normalizeEmail, type User } from "../domain/user";

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

export const partnerOperatorRoutes = new Hono<AppEnv>()
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
  });
