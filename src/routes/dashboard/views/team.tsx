// The team page (Admins): users and roles, invitations, role changes and removals.
import type { DashboardSession } from "../../../app/context";
import { ROLES } from "../../../domain/permissions";
import type { User } from "../../../domain/user";
import { CsrfField, Page, Time } from "./layout";

export function TeamPage(props: {
  session: DashboardSession;
  users: User[];
  notice?: string | undefined;
}) {
  const { session } = props;
  return (
    <Page title="Team" session={session} section="team" notice={props.notice}>
      <section aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite a user</h2>
        <form method="post" action="/dashboard/team" class="stack">
          <CsrfField session={session} />
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
      <table>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Last sign-in</th>
            <th scope="col">Invited</th>
            <th scope="col">Remove</th>
          </tr>
        </thead>
        <tbody>
          {props.users.map((user) => (
            <tr id={user.userId}>
              <td>
                {user.email}
                {user.userId === session.user.userId && <strong> (you)</strong>}
              </td>
              <td>
                <form method="post" action={`/dashboard/team/${user.userId}/role`} class="inline">
                  <CsrfField session={session} />
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
        </tbody>
      </table>
    </Page>
  );
}

export function RemoveUserPage(props: { session: DashboardSession; user: User }) {
  const { session, user } = props;
  return (
    <Page title="Remove a user" session={session} section="team">
      <p>
        Remove <strong>{user.email}</strong> ({user.role}) from the team? Their sessions end at
        once. Keys they created keep working.
      </p>
      <form method="post" action={`/dashboard/team/${user.userId}/remove`}>
        <CsrfField session={session} />
        <button type="submit" class="danger">
          Remove
        </button>{" "}
        <a href="/dashboard/team">Cancel</a>
      </form>
    </Page>
  );
}
