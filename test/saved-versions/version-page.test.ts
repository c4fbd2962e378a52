// The saved API version in the dashboard over HTTP: the versions each environment offers, the
// changes between the saved version and a target (from the bundle's change modules), a preview
// of one real response in both versions that matches what the API sends, the change itself, and
// its rollback for 72 hours on the movable clock. Versions come from the bundle, never a list.
import { afterEach, describe, expect, it, vi } from "vitest";
import { bundle } from "../../src/bundle";
import { api, expectJson, operator } from "../support/api";
import { seedTeam, signIn } from "../support/dashboard";
import {
  importData,
  monthlyStatement,
  seedAccount,
  statementsPath,
  uniqueId,
} from "../support/fixtures";
import type { Json } from "../support/json";

afterEach(() => {
  vi.useRealTimers();
});

const HOUR = 3_600_000;
const SAVED = bundle.versions.at(-1)?.id as string; // the oldest released version

async function teamWithStatements() {
  const f = await seedAccount({ statements: 3, savedVersion: SAVED });
  await operator("PUT", `/statements/${f.accountId}_st_002/pdf`, "%PDF-1.4\n%%EOF\n", {
    "content-type": "application/pdf",
  });
  return { f, team: await seedTeam(f.partnerId) };
}

function decodeEntities(html: string): string {
  return html
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

/** The JSON a preview column shows for `version`. */
function previewOf(html: string, version: string): Json {
  const start = html.indexOf(`aria-labelledby="response-${version}"`);
  expect(start, `no preview of ${version}`).toBeGreaterThan(-1);
  const pre = html.slice(html.indexOf("<pre>", start) + 5, html.indexOf("</pre>", start));
  const text = pre.replace(/<\/(del|ins)>/g, "\n").replace(/<[^>]+>/g, "");
  return JSON.parse(decodeEntities(text));
}

/** A page with its per-request values (instant, link signatures) blanked out. */
function stable(page: Json): Json {
  return JSON.parse(
    JSON.stringify(page)
      .replace(/"as_of":"[^"]+"/g, '"as_of":"…"')
      .replace(/"expires_at":"[^"]+"/g, '"expires_at":"…"')
      .replace(/expires=\d+&signature=[\w-]+/g, "expires=…&signature=…"),
  );
}

/** The changes between two versions, by name, as the bundle defines them. */
function changeNamesBetween(a: string, b: string): string[] {
  const older =
    bundle.versions.findIndex((v) => v.id === a) > bundle.versions.findIndex((v) => v.id === b)
      ? a
      : b;
  const newer = older === a ? b : a;
  const newerChanges = new Set(bundle.changesNewerThan(newer));
  return bundle
    .changesNewerThan(older)
    .filter((c) => !newerChanges.has(c))
    .map((c) => c.name);
}

describe("the API version page", () => {
  it("offers each environment exactly the versions the bundle supports there", async () => {
    const { team } = await teamWithStatements();
    for (const environment of ["sandbox", "production"] as const) {
      const html = await (await team.admin.get(`/dashboard/${environment}/version`)).text();
      const offered = [...html.matchAll(/<tr><td><code>([^<]+)<\/code>/g)].map((m) => m[1]);
      expect(offered).toEqual(bundle.supported(environment));
      expect(html).toContain(`<strong>${SAVED}</strong>, the`);
    }
  });

  for (const target of bundle.supported("sandbox").filter((v) => v !== SAVED)) {
    it(`lists the changes up to ${target} from the change modules, and only those`, async () => {
      const { team } = await teamWithStatements();
      const html = await (
        await team.admin.get(`/dashboard/sandbox/version?target=${target}`)
      ).text();
      const section = html.slice(
        html.indexOf(`From ${SAVED} to ${target}`),
        html.indexOf("<h3>Preview"),
      );
      const expected = changeNamesBetween(SAVED, target);
      for (const name of expected) expect(section).toContain(`<code>${name}</code>`);
      const all = bundle.versions.flatMap((v) => v.changes.map((c) => c.name));
      for (const name of all.filter((n) => !expected.includes(n))) {
        expect(section).not.toContain(`<code>${name}</code>`);
      }
    });

    it(`previews a real response in ${SAVED} and ${target}, as the API answers in each`, async () => {
      const { f, team } = await teamWithStatements();
      const html = await (
        await team.admin.get(`/dashboard/sandbox/version?target=${target}`)
      ).text();
      expect(html).toContain(`/accounts/${f.accountId}/statements?limit=2`);
      for (const version of [SAVED, target]) {
        const shown = previewOf(html, version);
        const res = await api(statementsPath(f, "?limit=2"), { key: f.key, version });
        expect(stable(shown)).toEqual(stable(await expectJson(res, 200)));
      }
    });
  }

  it("says so when the environment has no statement to preview", async () => {
    const { team } = await teamWithStatements();
    const target = bundle.supported("production").find((v) => v !== SAVED) as string;
    const html = await (
      await team.admin.get(`/dashboard/production/version?target=${target}`)
    ).text();
    expect(html).toContain("There is no statement in production yet to show.");
  });

  it("shows production customers' data to Admins only; a Developer's preview uses sandbox data", async () => {
    const { f, team } = await teamWithStatements();
    const [customer, account] = [uniqueId("cus"), uniqueId("acc")];
    await importData({
      customers: [
        {
          customer_id: customer,
          partner_id: f.partnerId,
          environment: "production",
          merchant_key: f.merchantKey,
        },
      ],
      accounts: [{ account_id: account, customer_id: customer, status: "OPEN", currency: "USD" }],
      statements: [monthlyStatement(account, 1), monthlyStatement(account, 2)],
    });
    const target = bundle.supported("production").find((v) => v !== SAVED) as string;
    const path = `/dashboard/production/version?target=${target}`;
    const admin = await (await team.admin.get(path)).text();
    expect(admin).toContain(`/customers/${customer}/accounts/${account}/statements`);
    expect(admin).not.toContain("built from your sandbox data");

    const developer = await (await team.developer.get(path)).text();
    for (const id of [customer, account, `${account}_st_002`]) {
      expect(developer).not.toContain(id);
    }
    expect(developer).toContain("built from your sandbox data");
    expect(developer).toContain(`/customers/${f.customerId}/accounts/${f.accountId}/statements`);
    for (const version of [SAVED, target]) {
      const res = await api(statementsPath(f, "?limit=2"), { key: f.key, version });
      expect(stable(previewOf(developer, version))).toEqual(stable(await expectJson(res, 200)));
    }
  });

  it("answers 404 for a target the environment does not offer", async () => {
    const { team } = await teamWithStatements();
    const unreleased = bundle.versions.find((v) => !v.released)?.id ?? "latest";
    for (const target of [unreleased, "2024-01-01", "<script>"]) {
      const res = await team.admin.get(
        `/dashboard/production/version?target=${encodeURIComponent(target)}`,
      );
      expect(res.status, target).toBe(404);
    }
  });
});

describe("changing the saved version", () => {
  const target = bundle.newestReleased;

  it("applies from the next request, and is in the audit log", async () => {
    const { f, team } = await teamWithStatements();
    const before = await (await team.admin.get("/dashboard/sandbox/version")).text();
    expect(before).toContain(
      '<caption class="visually-hidden">Versions offered in sandbox</caption>',
    );
    expect(before).not.toContain("Recent changes of the saved version");
    const res = await team.admin.post("/dashboard/sandbox/version", { from: SAVED, to: target });
    expect(res.status).toBe(303);
    const next = await api(statementsPath(f), { key: f.key });
    expect(next.headers.get("x-service-version")).toBe(target);
    // The change is listed, in a table named for screen readers.
    expect(await (await team.admin.get("/dashboard/sandbox/version")).text()).toContain(
      '<caption class="visually-hidden">Recent changes of the saved version</caption>',
    );
    const audit = await expectJson<{ data: Json[] }>(
      await operator("GET", `/partners/${f.partnerId}/audit?limit=1`),
      200,
    );
    expect(audit.data[0]).toMatchObject({
      action: "saved_version.changed",
      environment: "sandbox",
      actor: { type: "user", label: team.admin.email },
      details: { from: SAVED, to: target },
    });
  });

  it("refuses a form made for another saved version (409), changing nothing", async () => {
    const { f, team } = await teamWithStatements();
    await operator("PUT", `/partners/${f.partnerId}/saved-versions/sandbox`, { version: target });
    const res = await team.admin.post("/dashboard/sandbox/version", { from: SAVED, to: "latest" });
    expect(res.status).toBe(409);
    const next = await api(statementsPath(f), { key: f.key });
    expect(next.headers.get("x-service-version")).toBe(target);
  });

  it("refuses a version the environment does not offer, or the saved one", async () => {
    const { team } = await teamWithStatements();
    const unreleased = bundle.versions.find((v) => !v.released)?.id ?? "latest";
    const refused = [
      await team.admin.post("/dashboard/production/version", { from: SAVED, to: unreleased }),
      await team.admin.post("/dashboard/sandbox/version", { from: SAVED, to: "2024-01-01" }),
      await team.admin.post("/dashboard/sandbox/version", { from: SAVED, to: SAVED }),
    ];
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400]);
  });
});

describe("rolling back the saved version", () => {
  const target = bundle.newestReleased;

  async function changed() {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const setup = await teamWithStatements();
    await setup.team.admin.post("/dashboard/production/version", { from: SAVED, to: target });
    return { ...setup, start };
  }

  async function rollbackForm(client: Awaited<ReturnType<typeof seedTeam>>["admin"]) {
    const html = await (await client.get("/dashboard/production/version")).text();
    return /name="change" value="(\d+)"/.exec(html)?.[1] ?? null;
  }

  it("is offered for 72 hours and puts the previous version back", async () => {
    const { f, team, start } = await changed();
    vi.setSystemTime(start + 71 * HOUR);
    const admin = await signIn(team.admin.email);
    const change = await rollbackForm(admin);
    expect(change).not.toBeNull();
    const res = await admin.post("/dashboard/production/version/rollback", {
      change: change as string,
    });
    expect(res.status).toBe(303);
    const keys = await operator("POST", `/partners/${f.partnerId}/keys`, {
      environment: "production",
      scopes: [],
    });
    const { api_key } = await expectJson<{ api_key: string }>(keys, 201);
    const next = await api("/v2/customers", { key: api_key });
    expect(next.headers.get("x-service-version")).toBe(SAVED);
    // A rollback is not itself offered for rollback.
    expect(await rollbackForm(admin)).toBeNull();
    const again = await admin.post("/dashboard/production/version/rollback", {
      change: change as string,
    });
    expect(again.status).toBe(409);
  });

  it("is no longer possible after 72 hours", async () => {
    const { team, start } = await changed();
    const change = await rollbackForm(team.admin);
    expect(change).not.toBeNull();
    vi.setSystemTime(start + 72 * HOUR + 60_000);
    const admin = await signIn(team.admin.email);
    expect(await rollbackForm(admin)).toBeNull();
    const res = await admin.post("/dashboard/production/version/rollback", {
      change: change as string,
    });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("72 hours");
  });

  it("is not offered once another change came after", async () => {
    const { team } = await changed();
    const first = await rollbackForm(team.admin);
    await team.admin.post("/dashboard/production/version", { from: target, to: SAVED });
    const second = await rollbackForm(team.admin);
    expect(second).not.toBe(first);
    const res = await team.admin.post("/dashboard/production/version/rollback", {
      change: first as string,
    });
    expect(res.status).toBe(409);
  });
});
