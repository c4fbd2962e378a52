import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { readPdf } from "./pdf-reader";

it("renders", async () => {
  const bytes = await env.STATEMENT_RENDERER.render({
    statement: { statement_id: "st_1", period_end_date: "2026-09-30T23:59:59Z", currency: "JPY", statement_balance: 12345 },
    account: { account_id: "acc_1" },
    customer: { customer_id: "cus_1" },
    product: { display_name: "Acme", accent_colour: "#123456" },
  });
  const pdf = await readPdf(bytes);
  console.log(pdf.pageText[0]);
  expect(pdf.pages).toBe(1);
});
