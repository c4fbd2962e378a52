// The rewards categories on the dashboard's product section: Admins replace them with a form (one
// row per category), checked by the operator API's rules and audited; Developers see them without
// a form and are refused; a bad row is named and changes nothing.
import { describe, expect, it } from "vitest";
import { expectJson, operator } from "../support/api";
import { seedTeam } from "../support/dashboard";

async function categoriesOf(partnerId: string): Promise<unknown[]> {
  const res = await operator("GET", `/partners/${partnerId}/products`);
  const [product] = (await expectJson<{ data: { rewards_categories: unknown[] }[] }>(res, 200))
    .data;
  return product?.rewards_categories ?? [];
}

const ROWS = {
  rows: "4",
  category_id_0: "dining",
  name_0: "Dining",
  codes_0: "5812 5814",
  earn_rate_0: "3",
  earn_unit_0: "POINTS_PER_DOLLAR",
  category_id_1: "",
  name_1: "An empty row is left out",
  category_id_2: "everything",
  name_2: "Everything else",
  codes_2: "",
  earn_rate_2: "1",
  earn_unit_2: "POINTS_PER_DOLLAR",
};

describe("rewards categories on /dashboard/documents", () => {
  it("lets an Admin replace them, audited, and shows them in the form", async () => {
    const team = await seedTeam();
    const path = `/dashboard/documents/${team.merchantKey}/rewards`;
    const res = await team.admin.post(path, ROWS);
    expect(res.status, await res.clone().text()).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard/documents?notice=rewards");
    expect(await categoriesOf(team.partnerId)).toEqual([
      {
        category_id: "dining",
        name: "Dining",
        merchant_category_codes: ["5812", "5814"],
        earn_rate: "3",
        earn_unit: "POINTS_PER_DOLLAR",
      },
      {
        category_id: "everything",
        name: "Everything else",
        merchant_category_codes: [],
        earn_rate: "1",
        earn_unit: "POINTS_PER_DOLLAR",
      },
    ]);
    const page = await (await team.admin.get("/dashboard/documents?notice=rewards")).text();
    expect(page).toContain(`action="${path}"`);
    expect(page).toContain('name="category_id_0" aria-label="Id of row 1" value="dining"');
    expect(page).toContain('value="5812 5814"');
    expect(page).toContain("Cardholders&#39; accounts now list these rewards categories.");

    const audit = await operator("GET", `/partners/${team.partnerId}/audit?limit=5`);
    const entries = (
      await expectJson<{
        data: { action: string; actor: { type: string; label: string }; details: unknown }[];
      }>(audit, 200)
    ).data.filter((e) => e.action === "product.rewards_categories_changed");
    expect(entries.map((e) => [e.actor.type, e.actor.label, e.details])).toEqual([
      ["user", team.admin.email, { from: [], to: ["dining", "everything"] }],
    ]);
  });

  it("refuses a bad row, naming its category and field, and changes nothing", async () => {
    const team = await seedTeam();
    const path = `/dashboard/documents/${team.merchantKey}/rewards`;
    expect((await team.admin.post(path, ROWS)).status).toBe(303);
    const before = await categoriesOf(team.partnerId);
    const res = await team.admin.post(path, { ...ROWS, earn_rate_2: "1.005" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(
      "rewards_categories[1] (&quot;everything&quot;).earn_rate: must be a decimal string",
    );
    expect(await categoriesOf(team.partnerId)).toEqual(before);
  });

  it("shows a Developer the categories without a form, and refuses their change", async () => {
    const team = await seedTeam();
    await operator("PATCH", `/products/${team.merchantKey}`, {
      rewards_categories: [
        {
          category_id: "groceries",
          name: "Groceries",
          merchant_category_codes: ["5411"],
          earn_rate: "2",
          earn_unit: "PERCENT_CASH_BACK",
        },
      ],
    });
    const page = await (await team.developer.get("/dashboard/documents")).text();
    expect(page).toContain("Groceries");
    expect(page).toContain("2 % cash back");
    expect(page).not.toContain(`action="/dashboard/documents/${team.merchantKey}/rewards"`);
    const res = await team.developer.post(`/dashboard/documents/${team.merchantKey}/rewards`, ROWS);
    expect(res.status).toBe(403);
    expect(await categoriesOf(team.partnerId)).toHaveLength(1);
  });

  it("answers 404 for another partner's product", async () => {
    const [ours, theirs] = [await seedTeam(), await seedTeam()];
    const res = await ours.admin.post(`/dashboard/documents/${theirs.merchantKey}/rewards`, ROWS);
    expect(res.status).toBe(404);
    expect(await categoriesOf(theirs.partnerId)).toEqual([]);
  });
});
