// The service renders each statement's document itself, through the render queue and the renderer
// Worker (an auxiliary Worker of the test runtime, bound as in production): after an import
// commits, the statement's link appears and `statement.pdf_available` fires exactly as for an
// upload.
import { describe, expect, it } from "vitest";
import { api, expectJson, operator, type StatementList } from "../support/api";
import { eventually } from "../support/eventually";
import { importData, monthlyStatement, seedAccount, statementsPath } from "../support/fixtures";

describe("rendered statement documents", { timeout: 30_000 }, () => {
  it("renders an imported statement and links it", async () => {
    const f = await seedAccount({ documents: "rendered" });
    await importData({ statements: [monthlyStatement(f.accountId, 1)] });
    const page = await eventually(
      async () =>
        expectJson<StatementList>(
          await api(statementsPath(f), { key: f.key, version: "latest" }),
          200,
        ),
      (body) => body.data[0]?.pdf !== undefined,
    );
    const pdf = page.data[0]?.pdf as { url: string };
    expect(pdf).toBeDefined();
    const res = await api(new URL(pdf.url).pathname + new URL(pdf.url).search);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 8))).toBe("%PDF-1.7");
    void operator;
  });
});
