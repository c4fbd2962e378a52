import { describe, expect, it } from "vitest";
import { api, expectJson, operator, pdfBytes, seedAccount, statementsPath } from "./helpers";

describe("GET statements", () => {
  it("lists closed statements newest first with signed links", async () => {
    const f = await seedAccount({ statements: 3 });
    expect((await operator("PUT", `/statements/${f.accountId}_st_002/pdf`, pdfBytes(), { "content-type": "application/pdf" })).status).toBe(204);
    const res = await api(statementsPath(f), { key: f.key });
    const body = await expectJson<{ data: Record<string, unknown>[]; has_more: boolean }>(res, 200);
    expect(res.headers.get("x-service-version")).toBe("2025-05-05");
    expect(body.data.map((s) => s.statement_id)).toEqual([
      `${f.accountId}_st_003`,
      `${f.accountId}_st_002`,
      `${f.accountId}_st_001`,
    ]);
    expect(body.data[1]?.pdf_url).toMatch(/^http:\/\/api\.test\/files\/statements\//);
    expect(body.has_more).toBe(false);
    const pdf = await api((body.data[1]?.pdf_url as string).replace("http://api.test", ""));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
  });
});
