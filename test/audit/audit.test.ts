// The audit log over HTTP: every change to keys, saved versions and users, and every sign-in,
// whoever made it (a dashboard user, an API key through POST /v2/keys, the operator), with when
// and from which IP; newest first, paged by keyset, in the dashboard and the operator API.
import { describe, expect, it } from "vitest";
import { api, expectJson, operator } from "../support/api";
import { NEWEST_RELEASED, OLDEST } from "../support/bundle-versions";
import { seedTeam, signIn } from "../support/dashboard";
import { createKey, importData, seedAccount } from "../support/fixtures";

interface Entry {
  id: string;
  occurred_at: string;
  actor: { type: string; id: string | null; label: string };
  action: string;
  environment: string | null;
  target: string | null;
  details: Record<string, unknown>;
  ip: string | null;
}

async function audit(partnerId: string, query = "?limit=100"): Promise<Entry[]> {
  const res = await operator("GET", `/partners/${partnerId}/audit${query}`);
  return (await expectJson<{ data: Entry[] }>(res, 200)).data;
}

describe("the audit log", () => {
  it("records changes from the dashboard, the operator API and POST /v2/keys, newest first", async () => {
    const f = await seedAccount({ scopes: ["ACCOUNT_READ"] });
    const team = await seedTeam(f.partnerId);
    const minted = await expectJson<{ key_id: string }>(
      await api("/v2/keys", {
        key: f.key,
        method: "POST",
        headers: { "cf-connecting-ip": "203.0.113.7" },
      }),
      201,
    );
    await team.admin.post(`/dashboard/sandbox/keys/${f.keyId}/roll`, { expires: "1h" });
    await operator(
      "PUT",
      `/partners/${f.partnerId}/saved-versions/production`,
      { version: NEWEST_RELEASED },
      { "cf-connecting-ip": "198.51.100.2" },
    );
    await operator("DELETE", `/keys/${f.keyId}`);

    const [revoked, version, rolled, mintedEntry] = await audit(f.partnerId);
    expect(revoked).toMatchObject({
      action: "key.revoked",
      actor: { type: "operator", id: null, label: "operator" },
      environment: "sandbox",
      target: f.keyId,
      details: { cascade: true },
    });
    expect(new Set(revoked?.details.revoked_key_ids as string[])).toEqual(
      new Set([f.keyId, minted.key_id]),
    );
    expect(version).toMatchObject({
      action: "saved_version.changed",
      actor: { type: "operator" },
      environment: "production",
      details: { from: OLDEST, to: NEWEST_RELEASED },
      ip: "198.51.100.2",
    });
    expect(rolled).toMatchObject({
      action: "key.rolled",
      actor: { type: "user", id: team.adminId, label: team.admin.email },
      target: f.keyId,
      ip: team.admin.ip,
    });
    expect(rolled?.details.new_key_id).toMatch(/^key_/);
    expect(mintedEntry).toMatchObject({
      action: "key.created",
      actor: { type: "key", id: f.keyId, label: f.keyId },
      target: minted.key_id,
      details: { scopes: ["ACCOUNT_READ"] },
      ip: "203.0.113.7",
    });

    const page = await (await team.admin.get("/dashboard/audit")).text();
    const order = ["Revoked a key", "Changed the saved version", "Rolled a key", "Created a key"];
    const positions = order.map((label) => page.indexOf(label));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(page).toContain("203.0.113.7");
  });

  it("records invitations, sign-in requests, sign-ins and sign-outs", async () => {
    const team = await seedTeam();
    const again = await signIn(team.developer.email);
    await again.post("/dashboard/sign-out", { everywhere: "1" });
    const actions = (await audit(team.partnerId)).map((e) => `${e.action} ${e.actor.label}`);
    expect(actions.slice(0, 4)).toEqual([
      `user.signed_out_everywhere ${team.developer.email}`,
      `user.signed_in ${team.developer.email}`,
      `user.sign_in_requested ${team.developer.email}`,
      expect.stringMatching(/^user\.signed_in /),
    ]);
    expect(actions).toContain(`user.invited operator`);
  });

  it("records a saved version an import changes, and nothing for an import that keeps it", async () => {
    const f = await seedAccount({ savedVersion: OLDEST });
    const partner = (saved: Record<string, string>) => ({
      partners: [
        {
          partner_id: f.partnerId,
          name: "Test Partner",
          products: [{ merchant_key: f.merchantKey, name: "Test Card" }],
          saved_versions: saved,
        },
      ],
    });
    await importData(partner({ sandbox: OLDEST, production: NEWEST_RELEASED }));
    await importData(partner({ production: NEWEST_RELEASED }));
    const changes = (await audit(f.partnerId)).filter((e) => e.action === "saved_version.changed");
    expect(changes).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ type: "operator" }),
        environment: "production",
        details: { from: OLDEST, to: NEWEST_RELEASED, by: "import" },
      }),
    ]);
    // Like any change, it can be rolled back from the dashboard for 72 hours.
    const team = await seedTeam(f.partnerId);
    const page = await (await team.admin.get("/dashboard/production/version")).text();
    expect(page).toContain(`Roll back to ${OLDEST}`);
  });

  it("pages by keyset: no entry twice, none skipped, even as new ones arrive", async () => {
    const f = await seedAccount();
    for (let i = 0; i < 5; i++) await createKey(f.partnerId, "sandbox", []);
    const all = await audit(f.partnerId);
    expect(all).toHaveLength(6);
    const first = await audit(f.partnerId, "?limit=4");
    await createKey(f.partnerId, "sandbox", []);
    const rest = await audit(f.partnerId, `?limit=4&starting_after=${first.at(-1)?.id}`);
    expect([...first, ...rest].map((e) => e.id)).toEqual(all.map((e) => e.id));
    const res = await operator("GET", `/partners/${f.partnerId}/audit?limit=4`);
    expect((await res.json()) as { has_more: boolean }).toMatchObject({ has_more: true });
  });

  it("pages in the dashboard, fifty entries at a time", async () => {
    const f = await seedAccount();
    const team = await seedTeam(f.partnerId);
    for (let i = 0; i < 50; i++) await createKey(f.partnerId, "sandbox", []);
    const first = await (await team.admin.get("/dashboard/audit")).text();
    expect((first.match(/<tr id="audit_/g) ?? []).length).toBe(50);
    const older = /href="(\/dashboard\/audit\?before=audit_\d+)"/.exec(first)?.[1] ?? "";
    const second = await (await team.admin.get(older)).text();
    const rows = (second.match(/<tr id="audit_/g) ?? []).length;
    expect(rows).toBeGreaterThan(0);
    expect((await team.admin.get("/dashboard/audit?before=nope")).status).toBe(404);
  });

  it("shows a partner only its own entries", async () => {
    const [ours, theirs] = [await seedTeam(), await seedTeam()];
    const page = await (await ours.admin.get("/dashboard/audit")).text();
    expect(page).not.toContain(theirs.admin.email);
    expect(page).toContain(ours.admin.email);
  });
});

describe("the operator's keys and audit of a partner", () => {
  it("lists every key with its creator, status and expiry, filtered by environment", async () => {
    const f = await seedAccount();
    const live = await createKey(f.partnerId, "production", ["ACCOUNT_READ"]);
    const all = await expectJson<{ data: { key_id: string; environment: string }[] }>(
      await operator("GET", `/partners/${f.partnerId}/keys`),
      200,
    );
    expect(all.data.map((k) => k.key_id)).toEqual([live.keyId, f.keyId]);
    const sandbox = await expectJson<{ data: { key_id: string }[] }>(
      await operator("GET", `/partners/${f.partnerId}/keys?environment=sandbox`),
      200,
    );
    expect(sandbox.data.map((k) => k.key_id)).toEqual([f.keyId]);
    const next = await expectJson<{ data: { key_id: string }[]; has_more: boolean }>(
      await operator("GET", `/partners/${f.partnerId}/keys?limit=1&starting_after=${live.keyId}`),
      200,
    );
    expect(next).toEqual({ data: [expect.objectContaining({ key_id: f.keyId })], has_more: false });
  });

  it("answers 404 for an unknown partner, 400 for bad parameters, 401 without the token", async () => {
    const f = await seedAccount();
    for (const path of ["/partners/nope/keys", "/partners/nope/audit", "/partners/nope/users"]) {
      expect((await operator("GET", path)).status, path).toBe(404);
    }
    for (const query of [
      "keys?environment=staging",
      "keys?limit=0",
      "keys?limit=101",
      "keys?starting_after=key_nope",
      "audit?starting_after=nope",
      "audit?limit=x",
    ]) {
      expect((await operator("GET", `/partners/${f.partnerId}/${query}`)).status, query).toBe(400);
    }
    const anonymous = await operator("GET", `/partners/${f.partnerId}/keys`, undefined, {
      authorization: "Bearer wrong",
    });
    expect(anonymous.status).toBe(401);
  });
});
