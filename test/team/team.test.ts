// The team over HTTP: Admins invite (the invitation mails a first sign-in link), change roles and
// remove users; the last Admin can be neither demoted nor removed, even by two Admins at once.
import { describe, expect, it } from "vitest";
import { expectJson, operator } from "../support/api";
import {
  confirmLink,
  inviteByOperator,
  lastMailId,
  linksIn,
  nextMail,
  seedTeam,
  signIn,
  uniqueIp,
} from "../support/dashboard";
import { uniqueId } from "../support/fixtures";

const address = () => `${uniqueId("member")}@example.com`.toLowerCase();

async function users(partnerId: string) {
  const res = await operator("GET", `/partners/${partnerId}/users`);
  return (await expectJson<{ data: { user_id: string; email: string; role: string }[] }>(res, 200))
    .data;
}

describe("the team page", () => {
  it("lists the users in a table named for screen readers", async () => {
    const team = await seedTeam();
    const html = await (await team.admin.get("/dashboard/team")).text();
    expect(html).toContain('<caption class="visually-hidden">Users</caption>');
    expect(html).toContain(team.admin.email);
    expect(html).toContain(team.developer.email);
  });
});

describe("inviting", () => {
  it("mails the invitee a sign-in link that opens the dashboard in their role", async () => {
    const team = await seedTeam();
    const email = address();
    const res = await team.admin.post("/dashboard/team", {
      email: email.toUpperCase(),
      role: "Developer",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard/team?notice=invited");
    const mail = await nextMail(email);
    expect(mail.subject).toContain("invited");
    expect(mail.text).toContain(`${team.admin.email} invited you`);
    expect(mail.text).toContain("as Developer");
    const [link] = linksIn(mail);
    const signedIn = await confirmLink(link as string, uniqueIp());
    expect(signedIn.status).toBe(303);
    expect((await users(team.partnerId)).find((u) => u.email === email)?.role).toBe("Developer");
  });

  it("refuses an address already in the team (409) and one that is not an address (400)", async () => {
    const team = await seedTeam();
    const dup = await team.admin.post("/dashboard/team", {
      email: team.developer.email,
      role: "Admin",
    });
    expect(dup.status).toBe(409);
    const bad = await team.admin.post("/dashboard/team", { email: "nobody", role: "Admin" });
    expect(bad.status).toBe(400);
    const role = await team.admin.post("/dashboard/team", { email: address(), role: "Owner" });
    expect(role.status).toBe(400);
    expect(await users(team.partnerId)).toHaveLength(2);
  });
});

describe("roles", () => {
  it("change at once: a promoted Developer may manage production keys on the next request", async () => {
    const team = await seedTeam();
    expect((await team.developer.post("/dashboard/production/keys", {})).status).toBe(403);
    const res = await team.admin.post(`/dashboard/team/${team.developerId}/role`, {
      role: "Admin",
    });
    expect(res.status).toBe(303);
    expect((await team.developer.post("/dashboard/production/keys", {})).status).toBe(201);
  });

  it("never leave a partner without an Admin", async () => {
    const team = await seedTeam();
    const demote = await team.admin.post(`/dashboard/team/${team.adminId}/role`, {
      role: "Developer",
    });
    expect(demote.status).toBe(409);
    expect(await demote.text()).toContain("The last Admin cannot be demoted");
    const remove = await team.admin.post(`/dashboard/team/${team.adminId}/remove`);
    expect(remove.status).toBe(409);
    expect((await users(team.partnerId)).find((u) => u.user_id === team.adminId)?.role).toBe(
      "Admin",
    );
  });

  it("never leave a partner without an Admin when two Admins demote each other at once", async () => {
    const team = await seedTeam();
    await team.admin.post(`/dashboard/team/${team.developerId}/role`, { role: "Admin" });
    const results = await Promise.all([
      team.admin.post(`/dashboard/team/${team.developerId}/role`, { role: "Developer" }),
      team.developer.post(`/dashboard/team/${team.adminId}/role`, { role: "Developer" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([303, 409]);
    const admins = (await users(team.partnerId)).filter((u) => u.role === "Admin");
    expect(admins).toHaveLength(1);
  });

  it("let an Admin step down while another Admin remains", async () => {
    const team = await seedTeam();
    await team.admin.post(`/dashboard/team/${team.developerId}/role`, { role: "Admin" });
    const res = await team.admin.post(`/dashboard/team/${team.adminId}/role`, {
      role: "Developer",
    });
    expect(res.status).toBe(303);
    expect((await team.admin.get("/dashboard/team")).status).toBe(403);
  });
});

describe("removing", () => {
  it("ends the user's sessions at once and keeps the keys they created", async () => {
    const team = await seedTeam();
    const created = await team.developer.post("/dashboard/sandbox/keys", { name: "theirs" });
    expect(created.status).toBe(201);
    const confirm = await team.admin.get(`/dashboard/team/${team.developerId}/remove`);
    expect(await confirm.text()).toContain(team.developer.email);
    const res = await team.admin.post(`/dashboard/team/${team.developerId}/remove`);
    expect(res.headers.get("location")).toBe("/dashboard/team?notice=removed");
    expect((await team.developer.get("/dashboard/sandbox/keys")).status).toBe(303);
    expect((await users(team.partnerId)).map((u) => u.user_id)).toEqual([team.adminId]);
    const keys = await operator("GET", `/partners/${team.partnerId}/keys`);
    const listed = await expectJson<{ data: { name: string; status: string }[] }>(keys, 200);
    expect(listed.data.find((k) => k.name === "theirs")?.status).toBe("active");
  });

  it("signs out an Admin who removes themselves while another Admin remains", async () => {
    const team = await seedTeam();
    await team.admin.post(`/dashboard/team/${team.developerId}/role`, { role: "Admin" });
    const res = await team.admin.post(`/dashboard/team/${team.adminId}/remove`);
    expect(res.headers.get("location")).toBe("/dashboard/sign-in");
    expect((await team.admin.get("/dashboard/sandbox/keys")).status).toBe(303);
  });

  it("answers 404 for a user who is not in the team", async () => {
    const team = await seedTeam();
    expect((await team.admin.post("/dashboard/team/usr_nope/remove")).status).toBe(404);
    expect((await team.admin.post("/dashboard/team/usr_nope/role", { role: "Admin" })).status).toBe(
      404,
    );
  });
});

describe("the operator's invitation of a first Admin", () => {
  it("creates the Admin (by default), mails the link, and refuses a duplicate", async () => {
    const team = await seedTeam();
    const email = address();
    const res = await operator("POST", `/partners/${team.partnerId}/users`, { email });
    const user = await expectJson<{ role: string; email: string; partner_id: string }>(res, 201);
    expect(user).toMatchObject({ role: "Admin", email, partner_id: team.partnerId });
    const mail = await nextMail(email);
    expect(mail.text).toContain("The operator invited you");
    expect((await operator("POST", `/partners/${team.partnerId}/users`, { email })).status).toBe(
      409,
    );
  });

  it("refuses an unknown partner (404), a bad address or role (400), and no token (401)", async () => {
    const email = address();
    expect((await operator("POST", "/partners/nope/users", { email })).status).toBe(404);
    const team = await seedTeam();
    for (const body of [{ email: "x" }, { email, role: "Owner" }, { email, extra: 1 }, {}]) {
      const res = await operator("POST", `/partners/${team.partnerId}/users`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const anonymous = await operator(
      "POST",
      `/partners/${team.partnerId}/users`,
      { email },
      {
        authorization: "Bearer wrong",
      },
    );
    expect(anonymous.status).toBe(401);
    expect(await lastMailId(email)).toBe(0);
  });

  it("lets the invited Admin sign in and invite the rest", async () => {
    const team = await seedTeam();
    const email = address();
    await inviteByOperator(team.partnerId, email, "Admin");
    const admin = await signIn(email);
    const res = await admin.post("/dashboard/team", { email: address(), role: "Developer" });
    expect(res.status).toBe(303);
  });
});
