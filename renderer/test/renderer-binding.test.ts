// The renderer Worker as the API Worker will use it: bound by a Service Binding, called over RPC
// from the Workers runtime, stateless, and clear about input it cannot draw.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accentOf, contrastOnWhite } from "../src/accent";
import type { StatementDocumentInput } from "../src/statement-document";
import { JPEG_LOGO, PNG_LOGO } from "./logo-fixtures";
import { readObjects } from "./pdf-objects";
import { EVERY_LINE, periodicStatement, QUIET_CYCLE, withLogo } from "./sample-statements";

const render = (input: StatementDocumentInput) => env.STATEMENT_RENDERER.render(input);
const latin1 = (bytes: Uint8Array) => String.fromCharCode(...bytes);

/** The error a render ends in (awaited here: an RPC promise handed to `expect` goes unhandled). */
async function renderError(input: StatementDocumentInput): Promise<Error> {
  try {
    await render(input);
  } catch (error) {
    return error as Error;
  }
  throw new Error("the render succeeded");
}

describe("the Service Binding", () => {
  it("returns a whole PDF document's bytes over RPC", async () => {
    const bytes = await render(EVERY_LINE);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(latin1(bytes.subarray(0, 8))).toBe("%PDF-1.7");
    expect(latin1(bytes.subarray(-6)).trim()).toBe("%%EOF");
  });

  it("serves a caller Worker that renders on request, as the API Worker will", async () => {
    const res = await exports.default.fetch("http://caller/", {
      method: "POST",
      body: JSON.stringify(QUIET_CYCLE),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes).toEqual(await render(QUIET_CYCLE));
  });
});

describe("input the renderer cannot draw", () => {
  it("rejects a logo whose bytes are not what its media type says", async () => {
    const mislabelled = withLogo(EVERY_LINE, { ...PNG_LOGO, media_type: "image/jpeg" });
    const error = await renderError(mislabelled);
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toBe("logo bytes are not a JPEG image");
    const notAnImage = withLogo(EVERY_LINE, { ...JPEG_LOGO, bytes: new Uint8Array([1, 2, 3]) });
    expect((await renderError(notAnImage)).message).toBe("logo bytes are not a JPEG image");
  });

  it("rejects a logo without alternative text", async () => {
    const silent = withLogo(EVERY_LINE, { ...PNG_LOGO, alt_text: " " });
    expect((await renderError(silent)).message).toBe("logo alt_text must describe the logo");
  });

  it("rejects an accent colour that is not #RRGGBB, naming the field", async () => {
    const product = { ...EVERY_LINE.product, accent_colour: "blue" };
    expect((await renderError({ ...EVERY_LINE, product })).message).toBe(
      'accent_colour must be #RRGGBB; got "blue"',
    );
  });
});

describe("statement data the renderer cannot draw", () => {
  const sample = periodicStatement(3);
  const items = sample.statement.line_items ?? [];
  const withStatement = (statement: Partial<StatementDocumentInput["statement"]>) => ({
    ...sample,
    statement: { ...sample.statement, ...statement },
  });

  it("refuses more line items than the import accepts, naming the limit", async () => {
    const many = periodicStatement(1000).statement.line_items ?? [];
    const extra = { ...(many[0] as (typeof many)[number]), line_item_id: "li_extra" };
    expect((await renderError(withStatement({ line_items: [...many, extra] }))).message).toBe(
      "line_items: at most 1,000 per statement; got 1,001",
    );
  });

  it("names the line item and field of a type, date or amount it cannot read", async () => {
    const broken = (i: number, change: object) =>
      withStatement({
        line_items: items.map((item, n) => (n === i ? { ...item, ...change } : item)),
      });
    const cases: [StatementDocumentInput, string][] = [
      [
        broken(1, { type: "CASH_ADVANCE" }),
        'line_items[1].type must be one of PURCHASE, PAYMENT, CREDIT, REFUND, INTEREST, FEE; got "CASH_ADVANCE"',
      ],
      [
        broken(2, { posted_at: "yesterday" }),
        'line_items[2].posted_at must be an RFC 3339 timestamp; got "yesterday"',
      ],
      [
        broken(0, { amount: 12.5 }),
        "line_items[0].amount must be an integer of minor units; got 12.5",
      ],
      [broken(0, { description: " " }), "line_items[0].description must not be empty"],
    ];
    for (const [input, message] of cases) {
      const error = await renderError(input);
      expect(error).toBeInstanceOf(RangeError);
      expect(error.message).toBe(message);
    }
  });

  it("names a rate that is not a decimal percentage, and an address too long to print", async () => {
    const [rate] = sample.statement.interest_rates ?? [];
    const rates = [{ ...(rate as NonNullable<typeof rate>), annual_percentage_rate: "0.2499e2" }];
    expect((await renderError(withStatement({ interest_rates: rates }))).message).toBe(
      'interest_rates[0].annual_percentage_rate must be a decimal percentage such as "24.99"; got "0.2499e2"',
    );
    const product = { ...sample.product, billing_rights_address: Array(7).fill("PO Box 1") };
    expect((await renderError({ ...sample, product })).message).toBe(
      "billing_rights_address: at most 6 lines; got 7",
    );
    const late = { ...sample.product, late_payment: { penalty_apr: "high" } };
    expect((await renderError({ ...sample, product: late })).message).toBe(
      'late_payment.penalty_apr must be a decimal percentage such as "24.99"; got "high"',
    );
  });

  it("refuses repayment figures that give months without their total", async () => {
    const repayment = { minimum_payment: { months: 12 } };
    expect((await renderError(withStatement({ repayment }))).message).toBe(
      "repayment.minimum_payment.total_cost is required when months is given",
    );
  });
});

describe("the accent colour", () => {
  const scn = (hex: string) =>
    `${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255).join(" ")} scn`;

  it("keeps a colour that is legible on white, and darkens one that is not to 4.5:1", () => {
    expect(accentOf("#1f6feb").strong).toBe("#1f6feb");
    const light = accentOf("#ffd166").strong;
    expect(contrastOnWhite("#ffd166")).toBeLessThan(4.5);
    expect(contrastOnWhite(light)).toBeGreaterThanOrEqual(4.5);
  });

  it("draws the document's headings and table header in the legible shade", async () => {
    const { contents } = await readObjects(await render(QUIET_CYCLE));
    expect(QUIET_CYCLE.product.accent_colour).toBe("#ffd166");
    expect(contents[0]).toContain(scn(accentOf("#ffd166").strong));
    expect(contents[0]).not.toContain(scn("#ffd166"));
  });
});
