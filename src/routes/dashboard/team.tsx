// /dashboard/team (Admins): invite users, change roles, remove users. The last Admin can be
// neither demoted nor removed (the data layer's guard holds even against concurrent changes).
import { Hono } from "hono";
import { userActor } from "../../app/actor";
import type { AppEnv } from "../../app/context";
import { authorize } from "../../app/dashboard/authorize";
import { mailInvitation } from "../../app/dashboard/mail";
import { clearSessionCookie } from "../../app/dashboard/session";
import { ApiError } from "../../app/errors";
import { changeRole, findUser, inviteUser, listUsers, removeUser } from "../../db/users";
import { ROLES, type Role } from "../../domain/permissions";
import { normalizeEmail } from "../../domain/user";
import { field } from "./forms";
import { RemoveUserPage, TeamPage } from "./views/team";

const NOTICES: Record<string, string> = {
  invited: "Invitation sent.",
  "role-changed": "Role changed.",
  removed: "User removed.",
};

function roleField(value: string): Role {
  const role = ROLES.find((r) => r === value);
  if (!role) throw new ApiError("BAD_REQUEST_ERROR", "Choose a role: Admin or Developer.");
  return role;
}

function userNotFound(): ApiError {
  return new ApiError("NOT_FOUND_ERROR", "There is no such user in your team.");
}

function lastAdmin(what: string): ApiError {
  return new ApiError(
    "CONFLICT_ERROR",
    `The last Admin cannot be ${what}: make another user Admin first.`,
  );
}

export const teamPageRoutes = new Hono<AppEnv>()
  .get("/dashboard/team", async (c) => {
    authorize(c, "team.view", "production");
    const { user } = c.get("session");
    return c.html(
      <TeamPage
        session={c.get("session")}
        users={await listUsers(c.get("db"), user.partnerId)}
        notice={NOTICES[c.req.query("notice") ?? ""]}
      />,
    );
  })

  .post("/dashboard/team", async (c) => {
    authorize(c, "team.invite", "production");
    const { user, partnerName } = c.get("session");
    const email = normalizeEmail(await field(c, "email"));
    if (!email) throw new ApiError("BAD_REQUEST_ERROR", "Enter an email address to invite.");
    const invited = await inviteUser(c.get("db"), {
      partnerId: user.partnerId,
      email,
      role: roleField(await field(c, "role")),
      actor: userActor(c, user),
      now: c.get("now")(),
    });
    if (!invited) throw new ApiError("CONFLICT_ERROR", `${email} is already in your team.`);
    mailInvitation(c, invited, partnerName, user.email);
    return c.redirect("/dashboard/team?notice=invited", 303);
  })

  .post("/dashboard/team/:user_id/role", async (c) => {
    authorize(c, "team.change_role", "production");
    const { user } = c.get("session");
    const result = await changeRole(c.get("db"), {
      partnerId: user.partnerId,
      userId: c.req.param("user_id"),
      role: roleField(await field(c, "role")),
      actor: userActor(c, user),
      now: c.get("now")(),
    });
    if (result === "not_found") throw userNotFound();
    if (result === "last_admin") throw lastAdmin("demoted");
    return c.redirect("/dashboard/team?notice=role-changed", 303);
  })

  .get("/dashboard/team/:user_id/remove", async (c) => {
    authorize(c, "team.remove", "production");
    const { user } = c.get("session");
    const target = await findUser(c.get("db"), user.partnerId, c.req.param("user_id"));
    if (!target) throw userNotFound();
    return c.html(<RemoveUserPage session={c.get("session")} user={target} />);
  })

  .post("/dashboard/team/:user_id/remove", async (c) => {
    authorize(c, "team.remove", "production");
    const { user } = c.get("session");
    const userId = c.req.param("user_id");
    const result = await removeUser(c.get("db"), {
      partnerId: user.partnerId,
      userId,
      actor: userActor(c, user),
      now: c.get("now")(),
    });
    if (result === "not_found") throw userNotFound();
    if (result === "last_admin") throw lastAdmin("removed");
    if (userId === user.userId) {
      clearSessionCookie(c);
      return c.redirect("/dashboard/sign-in", 303);
    }
    return c.redirect("/dashboard/team?notice=removed", 303);
  });
