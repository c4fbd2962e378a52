// How a product presents its statement documents, set through the operator API: display name,
// accent colour and logo (PNG or JPEG, within size limits, with alternative text), checked by the
// renderer's own rules before anything is stored, audited, and drawn on the next render.
import { describe, expect, it } from "vitest";
import { JPEG_LOGO, PNG_LOGO } from "../../renderer/test/logo-fixtures";
import { readPdf, type StructNode } from "../../renderer/test/pdf-reader";
import { MAX_LOGO_BYTES } from "../../src/documents/presentation";
import { api, type ErrorBody, expectJson, operator, type StatementList } from "../support/api";
import { eventually } from "../support/eventually";
import { importData, monthlyStatement, seedAccount, statementsPath } from "../support/fixtures";
import { concat, ihdr } from "../support/images";

const base64 = (bytes: Uint8Array) =>
  btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));

interface ProductJson {
  merchant_key: string;
  partner_id: string;
  name: string;
  documents: string;
  display_name: string | null;
  accent_colour: string | null;
  logo: { media_type: string; alt_text: string } | null;
}

function change(merchantKey: string, body: unknown) {
  return operator("PATCH", `/products/${merchantKey}`, body);
}

async function refused(merchantKey: string, body: unknown): Promise<string[]> {
  const res = await change(merchantKey, body);
  const error = await expectJson<ErrorBody>(res, 400);
  expect(error.error.type).toBe("INVALID_REQUEST_ERROR");
  return error.error.details ?? [];
}

/** The sample PNG with a header (its CRC valid) saying it is `width` × `height` pixels. */
function pngOfSize(width: number, height: number): Uint8Array {
  const bytes = PNG_LOGO.bytes;
  return concat([bytes.subarray(0, 8), ihdr({ width, height }), bytes.subarray(8 + 25)]);
}

function figures(node: StructNode): StructNode[] {
  const children = (node.children ?? []).filter((c): c is StructNode => "role" in c);
  return [...(node.role === "Figure" ? [node] : []), ...children.flatMap(figures)];
}

describe("a product's presentation", { timeout: 30_000 }, () => {
  it("is drawn on its statements: display name, colour, and the logo with its text", async () => {
    const f = await seedAccount({ documents: "rendered" });
    const res = await change(f.merchantKey, {
      display_name: "Acme Rewards",
      accent_colour: "#0A7D4F",
      logo: { media_type: "image/png", data: base64(PNG_LOGO.bytes), alt_text: "Acme Bank" },
    });
    expect(await expectJson<ProductJson>(res, 200)).toEqual({
      merchant_key: f.merchantKey,
      partner_id: f.partnerId,
      name: "Test Card",
      documents: "rendered",
      display_name: "Acme Rewards",
      accent_colour: "#0a7d4f",
      logo: { media_type: "image/png", alt_text: "Acme Bank" },
      billing_rights_address: null,
      late_payment: null,
      minimum_payment: null,
      credit_counseling_phone: null,
      rewards_categories: [],
    });
    const listed = await operator("GET", `/partners/${f.partnerId}/products`);
    expect((await expectJson<{ data: ProductJson[] }>(listed, 200)).data).toHaveLength(1);

    await importData({ statements: [monthlyStatement(f.accountId, 1)] });
    const page = await eventually(
      async () =>
        expectJson<StatementList>(
          await api(statementsPath(f), { key: f.key, version: "latest" }),
          200,
        ),
      (body) => body.data[0]?.pdf !== undefined,
    );
    const url = new URL((page.data[0]?.pdf as { url: string } | undefined)?.url ?? "");
    const pdf = new Uint8Array(await (await api(url.pathname + url.search)).arrayBuffer());
    const read = await readPdf(pdf);
    expect(read.pageText[0]).toContain("Acme Rewards statement");
    expect(figures(read.structure).map((figure) => figure.alt)).toEqual(["Acme Bank"]);
  });

  it("takes a JPEG logo, a new alternative text, and goes back to the defaults with null", async () => {
    const f = await seedAccount();
    const jpeg = { media_type: "image/jpeg", data: base64(JPEG_LOGO.bytes), alt_text: "Acme" };
    expect(
      (await expectJson<ProductJson>(await change(f.merchantKey, { logo: jpeg }), 200)).logo,
    ).toEqual({ media_type: "image/jpeg", alt_text: "Acme" });
    const retext = await change(f.merchantKey, { logo_alt_text: "Acme Bank, Inc." });
    expect((await expectJson<ProductJson>(retext, 200)).logo?.alt_text).toBe("Acme Bank, Inc.");
    const reset = await change(f.merchantKey, {
      display_name: null,
      accent_colour: null,
      logo: null,
    });
    expect(await expectJson<ProductJson>(reset, 200)).toMatchObject({
      display_name: null,
      accent_colour: null,
      logo: null,
    });
  });

  it("records who changed what in the partner's audit log", async () => {
    const f = await seedAccount();
    await expectJson(await change(f.merchantKey, { accent_colour: "#123456" }), 200);
    await expectJson(await change(f.merchantKey, { documents: "rendered" }), 200);
    const res = await operator("GET", `/partners/${f.partnerId}/audit?limit=2`);
    const entries = (
      await expectJson<{
        data: { action: string; actor: { type: string }; target: string; details: unknown }[];
      }>(res, 200)
    ).data;
    expect(entries.map((e) => [e.action, e.actor.type, e.target, e.details])).toEqual([
      [
        "product.documents_changed",
        "operator",
        f.merchantKey,
        { from: "uploaded", to: "rendered" },
      ],
      ["product.presentation_changed", "operator", f.merchantKey, { fields: ["accent_colour"] }],
    ]);
  });

  it("refuses what the renderer could not draw, naming the field, and stores nothing", async () => {
    const f = await seedAccount();
    const png = (bytes: Uint8Array, alt_text = "Acme") => ({
      logo: { media_type: "image/png", data: base64(bytes), alt_text },
    });
    expect(await refused(f.merchantKey, { accent_colour: "blue" })).toEqual([
      'accent_colour: must be a colour written #RRGGBB, not a string ("blue")',
    ]);
    expect(await refused(f.merchantKey, { display_name: "  " })).toEqual([
      "display_name: must not be blank",
    ]);
    expect(await refused(f.merchantKey, png(JPEG_LOGO.bytes))).toEqual([
      "logo.data: logo bytes are not a PNG image",
    ]);
    expect(await refused(f.merchantKey, png(PNG_LOGO.bytes, " "))).toEqual([
      "logo.alt_text: must describe the logo (it must not be blank)",
    ]);
    expect(await refused(f.merchantKey, png(pngOfSize(2000, 100)))).toEqual([
      "logo.data: logo must be at most 1024 × 1024 pixels; got 2000 × 100",
    ]);
    const large = new Uint8Array(MAX_LOGO_BYTES + 1);
    large.set(PNG_LOGO.bytes);
    expect(await refused(f.merchantKey, png(large))).toEqual([
      `logo.data: logo must be at most ${MAX_LOGO_BYTES} bytes; got ${MAX_LOGO_BYTES + 1}`,
    ]);
    expect(
      await refused(f.merchantKey, { logo: { media_type: "image/gif", data: "", alt_text: "x" } }),
    ).toHaveLength(1);
    expect(await refused(f.merchantKey, { logo_alt_text: "Acme" })).toEqual([
      "logo_alt_text: the product has no logo to describe",
    ]);
    expect(await refused(f.merchantKey, { documents: "emailed" })).toHaveLength(1);
    expect(await refused(f.merchantKey, { colour: "#000000" })).toHaveLength(1);
    const listed = await operator("GET", `/partners/${f.partnerId}/products`);
    expect((await expectJson<{ data: ProductJson[] }>(listed, 200)).data[0]).toMatchObject({
      display_name: null,
      accent_colour: null,
      logo: null,
    });
  });

  it("answers 404 for a product that does not exist", async () => {
    const res = await change("mk_never", { display_name: "X" });
    expect((await expectJson<ErrorBody>(res, 404)).error.type).toBe("NOT_FOUND_ERROR");
    const partner = await operator("GET", "/partners/p_never/products");
    expect(partner.status).toBe(404);
  });
});
