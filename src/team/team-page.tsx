// /dashboard/team (Admins): users and roles; invite users, change roles, remove users. The last
// Admin can be neither demoted nor removed (the data layer's guard holds even against concurrent
// changes).
import { Hono } from "hono";
import { userActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { partnerDirectory } from "../app/directory-address";
import { ApiError } from "../app/errors";
import { field } from "../dashboard/forms";
import { CsrfField, Time } from "../dashboard/layout";
import { mailInvitation } from "../dashboard/mail";
import { allow, type DashboardPage } from "../dashboard/page";
import { clearSessionCookie } from "../dashboard/session";
import { Table } from "../dashboard/table";
import { changeRole, findUser, inviteUser, listUsers, removeUser } from "../db/users";
import { ROLES, type Role } from "../domain/permissions";
import { normalizeEmail, type User } from "../domain/user";

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

function TeamView(props: { users: User[]; you: string }) {
  return (
    <>
      <section aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite a user</h2>
        <form method="post" action="/dashboard/team" class="stack">
          <CsrfField />
          <label for="invite-email">Email address</label>
          <input id="invite-email" name="email" type="email" autocomplete="off" required />
          <label for="invite-role">Role</label>
          <select id="invite-role" name="role">
            {ROLES.map((role) => (
              <option value={role} selected={role === "Developer"}>
                {role}
              </option>
            ))}
          </select>
          <div>
            <button type="submit">Send invitation</button>
          </div>
        </form>
        <p class="muted">
          Admins manage keys and webhooks in both environments, the saved API version, the team and
          the audit log. Developers manage sandbox keys and webhooks, and see production's keys,
          webhooks and versions.
        </p>
      </section>
      <h2>Users</h2>
      <Table caption="Users" columns={["Email", "Role", "Last sign-in", "Invited", "Remove"]}>
        {props.users.map((user) => (
          <tr id={user.userId}>
            <td>
              {user.email}
              {user.userId === props.you && <strong> (you)</strong>}
            </td>
            <td>
              <form method="post" action={`/dashboard/team/${user.userId}/role`} class="inline">
                <CsrfField />
                <label for={`role-${user.userId}`} class="visually-hidden">
                  Role of {user.email}
                </label>
                <select id={`role-${user.userId}`} name="role">
                  {ROLES.map((role) => (
                    <option value={role} selected={role === user.role}>
                      {role}
                    </option>
                  ))}
                </select>{" "}
                <button type="submit" class="secondary">
                  Change<span class="visually-hidden"> the role of {user.email}</span>
                </button>
              </form>
            </td>
            <td>
              {user.lastSignedInAt ? (
                <Time at={user.lastSignedInAt} />
              ) : (
                <span class="muted">Never</span>
              )}
            </td>
            <td>
              <Time at={user.createdAt} />
            </td>
            <td>
              <a href={`/dashboard/team/${user.userId}/remove`}>
                Remove<span class="visually-hidden"> {user.email}</span>
              </a>
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}

function RemoveUserView({ user }: { user: User }) {
  return (
    <>
      <p>
        Remove <strong>{user.email}</strong> ({user.role}) from the team? Their sessions end at
        once. Keys they created keep working.
      </p>
      <form method="post" action={`/dashboard/team/${user.userId}/remove`}>
        <CsrfField />
        <button type="submit" class="danger">
          Remove
        </button>{" "}
        <a href="/dashboard/team">Cancel</a>
      </form>
    </>
  );
}

const routes = new Hono<AppEnv>()
  .get("/team", allow("team.view"), async (c) => {
    const { user } = c.var.session;
    return c.render(
      <TeamView users={await listUsers(c.get("db"), user.partnerId)} you={user.userId} />,
      { title: "Team", section: "team", notice: NOTICES[c.req.query("notice") ?? ""] },
    );
  })

  .post("/team", allow("team.invite"), async (c) => {
    const { user, partnerName } = c.var.session;
    const email = normalizeEmail(await field(c, "email"));
    if (!email) throw new ApiError("BAD_REQUEST_ERROR", "Enter an email address to invite.");
    const invited = await inviteUser(c.get("db"), partnerDirectory(c), {
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

  .post("/team/:user_id/role", allow("team.change_role"), async (c) => {
    const { user } = c.var.session;
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

  .get("/team/:user_id/remove", allow("team.remove"), async (c) => {
    const { user } = c.var.session;
    const target = await findUser(c.get("db"), user.partnerId, c.req.param("user_id"));
    if (!target) throw userNotFound();
    return c.render(<RemoveUserView user={target} />, { title: "Remove a user", section: "team" });
  })

  .post("/team/:user_id/remove", allow("team.remove"), async (c) => {
    const { user } = c.var.session;
    const userId = c.req.param("user_id");
    const result = await removeUser(c.get("db"), partnerDirectory(c), {
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

export const teamPage: DashboardPage = {
  routes,
  nav: { section: "team", label: "Team", action: "team.view", perEnvironment: false },
};
