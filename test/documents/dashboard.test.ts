// The dashboard's statement documents page: every user sees how the partner's products present
// their statements; Admins change it (a logo uploaded as a file), with the operator API's rules,
// an audit row naming them, and a CSRF token; a refused or invalid change stores nothing.
import { describe, expect, it } from "vitest";
import { JPEG_LOGO, PNG_LOGO } from "../../renderer/test/logo-fixtures";
import { expectJson, operator } from "../support/api";
import { seedTeam } from "../support/dashboard";

interface ProductJson {
  display_name: string | null;
  accent_colour: string | null;
  logo: { media_type: string; alt_text: string } | null;
}

async function productOf(partnerId: string): Promise<ProductJson> {
  const res = await operator("GET", `/partners/${partnerId}/products`);
  return (await expectJson<{ data: ProductJson[] }>(res, 200)).data[0] as ProductJson;
}

const pngFile = (bytes = PNG_LOGO.bytes, type = "image/png") =>
  new File([bytes], "logo.png", { type });

describe("/dashboard/documents", () => {
  it("lets an Admin set the name, colour and logo, each change audited", async () => {
    const team = await seedTeam();
    const path = `/dashboard/documents/${team.merchantKey}`;
    const res = await team.admin.postMultipart(
      path,
      { display_name: "Team Rewards", accent_colour: "#0A7D4F", logo_alt_text: "Team Bank" },
      { logo: pngFile() },
    );
    expect(res.status, await res.clone().text()).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard/documents?notice=saved");
    expect(await productOf(team.partnerId)).toEqual(
      expect.objectContaining({
        display_name: "Team Rewards",
        accent_colour: "#0a7d4f",
        logo: { media_type: "image/png", alt_text: "Team Bank" },
      }),
    );
    const page = await (await team.admin.get("/dashboard/documents?notice=saved")).text();
    expect(page).toContain('value="Team Rewards"');
    expect(page).toContain("PNG, described as “Team Bank”");
    expect(page).toContain('enctype="multipart/form-data"');
    // The form states the limits the change is checked against.
    expect(page).toContain('name="display_name" type="text" maxlength="80"');
    expect(page).toContain('name="logo_alt_text" type="text" maxlength="200"');
    expect(page).toContain("New logo (PNG or JPEG, at most 256 KiB and 1024 px a side)");
    expect(page).toContain('accept="image/png,image/jpeg"');

    // A new alternative text alone, then the logo removed.
    const retext = await team.admin.postMultipart(path, {
      display_name: "Team Rewards",
      accent_colour: "#0a7d4f",
      logo_alt_text: "Team Bank, Inc.",
    });
    expect(retext.status).toBe(303);
    expect((await productOf(team.partnerId)).logo?.alt_text).toBe("Team Bank, Inc.");
    const removed = await team.admin.post(path, {
      display_name: "Team Rewards",
      accent_colour: "#0a7d4f",
      remove_logo: "1",
    });
    expect(removed.status).toBe(303);
    expect((await productOf(team.partnerId)).logo).toBeNull();

    const audit = await operator("GET", `/partners/${team.partnerId}/audit?limit=10`);
    const entries = (
      await expectJson<{
        data: { action: string; actor: { type: string; label: string }; details: unknown }[];
      }>(audit, 200)
    ).data.filter((e) => e.action === "product.presentation_changed");
    expect(entries.map((e) => [e.actor.type, e.actor.label, e.details])).toEqual([
      ["user", team.admin.email, { fields: ["logo"] }],
      ["user", team.admin.email, { fields: ["logo"] }],
      ["user", team.admin.email, { fields: ["display_name", "accent_colour", "logo"] }],
    ]);
  });

  it("refuses a logo that is not what it says, or too large, and stores nothing", async () => {
    const team = await seedTeam();
    const path = `/dashboard/documents/${team.merchantKey}`;
    const mislabelled = await team.admin.postMultipart(
      path,
      { logo_alt_text: "Team" },
      { logo: pngFile(JPEG_LOGO.bytes) },
    );
    expect(mislabelled.status).toBe(400);
    expect(await mislabelled.text()).toContain("logo bytes are not a PNG image");
    const gif = await team.admin.postMultipart(
      path,
      { logo_alt_text: "Team" },
      { logo: pngFile(PNG_LOGO.bytes, "image/gif") },
    );
    expect(gif.status).toBe(400);
    const huge = await team.admin.postMultipart(
      path,
      { logo_alt_text: "Team" },
      { logo: pngFile(new Uint8Array(600 * 1024)) },
    );
    expect(huge.status).toBe(413);
    const blank = await team.admin.postMultipart(path, { logo_alt_text: " " }, { logo: pngFile() });
    expect(blank.status).toBe(400);
    expect(await productOf(team.partnerId)).toEqual(
      expect.objectContaining({ display_name: null, accent_colour: null, logo: null }),
    );
  });

  it("lets an Admin set the statement's terms, shown back in the form, and refuses bad ones", async () => {
    const team = await seedTeam();
    const path = `/dashboard/documents/${team.merchantKey}`;
    const terms = {
      billing_rights_address: "Team Card Services\r\nPO Box 1234\r\n\r\nWilmington, DE 19850",
      late_fee: "4000",
      penalty_apr: "29.99",
      minimum_percent: "1",
      minimum_includes_interest_and_fees: "1",
      minimum_amount: "2500",
      credit_counseling_phone: "1-800-555-0100",
    };
    const res = await team.admin.post(path, terms);
    expect(res.status, await res.clone().text()).toBe(303);
    const stored = {
      billing_rights_address: ["Team Card Services", "PO Box 1234", "Wilmington, DE 19850"],
      late_payment: { late_fee: 4000, penalty_apr: "29.99" },
      minimum_payment: {
        percent_of_balance: "1",
        includes_interest_and_fees: true,
        minimum_amount: 2500,
      },
      credit_counseling_phone: "1-800-555-0100",
    };
    expect(await productOf(team.partnerId)).toEqual(expect.objectContaining(stored));
    const page = await (await team.admin.get("/dashboard/documents")).text();
    expect(page).toContain("Team Card Services\nPO Box 1234\nWilmington, DE 19850</textarea>");
    expect(page).toContain('name="penalty_apr" type="text" value="29.99"');
    expect(page).toContain('name="credit_counseling_phone" type="text" value="1-800-555-0100"');

    const badFee = await team.admin.post(path, { ...terms, late_fee: "40.00" });
    expect(badFee.status).toBe(400);
    expect(await badFee.text()).toContain("late_payment.late_fee");
    const sevenLines = await team.admin.post(path, {
      ...terms,
      billing_rights_address: Array(7).fill("Line").join("\n"),
    });
    expect(sevenLines.status).toBe(400);
    expect(await productOf(team.partnerId)).toEqual(expect.objectContaining(stored));

    // Emptied fields remove the terms.
    const cleared = await team.admin.post(path, {});
    expect(cleared.status).toBe(303);
    expect(await productOf(team.partnerId)).toEqual(
      expect.objectContaining({
        billing_rights_address: null,
        late_payment: null,
        minimum_payment: null,
        credit_counseling_phone: null,
      }),
    );
    const developerPage = await (await team.developer.get("/dashboard/documents")).text();
    expect(developerPage).toContain("Billing-rights address");
  });

  it("shows a Developer the look without a form, and refuses their change", async () => {
    const team = await seedTeam();
    const page = await (await team.developer.get("/dashboard/documents")).text();
    expect(page).toContain("Team Card");
    expect(page).not.toContain(`action="/dashboard/documents/${team.merchantKey}"`);
    expect(page).toContain("Only Admins can change how statement documents look");
    const res = await team.developer.post(`/dashboard/documents/${team.merchantKey}`, {
      display_name: "Mine",
    });
    expect(res.status).toBe(403);
    expect((await productOf(team.partnerId)).display_name).toBeNull();
  });

  it("answers 404 for another partner's product, and 403 without the session's CSRF token", async () => {
    const [ours, theirs] = [await seedTeam(), await seedTeam()];
    const foreign = await ours.admin.post(`/dashboard/documents/${theirs.merchantKey}`, {
      display_name: "Taken",
    });
    expect(foreign.status).toBe(404);
    const forged = await ours.admin.post(`/dashboard/documents/${ours.merchantKey}`, {
      csrf: "forged",
      display_name: "Forged",
    });
    expect(forged.status).toBe(403);
    expect((await productOf(theirs.partnerId)).display_name).toBeNull();
    expect((await productOf(ours.partnerId)).display_name).toBeNull();
  });
});
