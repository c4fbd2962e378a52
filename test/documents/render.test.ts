// The service renders each statement's document itself, through the render queue and the renderer
// Worker (an auxiliary Worker of the test runtime, bound as in production): after an import
// commits, the statement's link appears and `statement.pdf_available` fires exactly as for an
// upload. Uploads keep working for both kinds of product.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readPdf } from "../../renderer/test/pdf-reader";
import { api, expectJson, operator, type StatementList } from "../support/api";
import { eventually } from "../support/eventually";
import {
  type Fixture,
  importData,
  monthlyStatement,
  pdfBytes,
  seedAccount,
  statementsPath,
} from "../support/fixtures";

interface Listed {
  statement_id: string;
  pdf?: { url: string; expires_at: string };
}

/** The account's statements in `latest`, whose `pdf` object says whether the document is there. */
async function listed(f: Fixture): Promise<Listed[]> {
  const res = await api(statementsPath(f, "?limit=100"), { key: f.key, version: "latest" });
  return (await expectJson<StatementList>(res, 200)).data as unknown as Listed[];
}

/** Waits until every statement of the account has its document; answers the listing. */
function untilRendered(f: Fixture, count: number): Promise<Listed[]> {
  return eventually(
    () => listed(f),
    (rows) => rows.length === count && rows.every((row) => row.pdf !== undefined),
    20_000,
  );
}

/** The document behind a statement's link. */
async function download(statement: Listed): Promise<Uint8Array> {
  const url = new URL(statement.pdf?.url ?? "");
  const res = await api(url.pathname + url.search);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/pdf");
  return new Uint8Array(await res.arrayBuffer());
}

async function eventTypes(f: Fixture, statementId: string): Promise<string[]> {
  const res = await api("/v2/events?limit=100", { key: f.key });
  const body = await expectJson<{
    data: { type: string; data: { statement: { statement_id: string } } }[];
  }>(res, 200);
  return body.data
    .filter((e) => e.data.statement.statement_id === statementId)
    .map((e) => e.type)
    .sort();
}

async function renders(partnerId: string, status: string) {
  const res = await operator("GET", `/partners/${partnerId}/statement-renders?status=${status}`);
  return (await expectJson<{ data: { statement_id: string; status: string }[] }>(res, 200)).data;
}

describe("rendered statement documents", { timeout: 40_000 }, () => {
  it("renders each imported statement from its figures and links it", async () => {
    const f = await seedAccount({ documents: "rendered" });
    const statements = [1, 2, 3].map((month) => monthlyStatement(f.accountId, month));
    await importData({ statements });
    const rows = await untilRendered(f, 3);
    const newest = rows.find((row) => row.statement_id === statements[2]?.statement_id);
    const text = (await readPdf(await download(newest as Listed))).pageText.join(" ");
    // monthlyStatement(…, 3): balance 100.03, minimum 25.00, previous 90.00, purchases 40.00…
    for (const shown of [
      "Test Card statement",
      "$100.03",
      "$25.00",
      "$90.00",
      "$40.00",
      "-$30.00",
      "-$2.00",
      "$1.50",
      "$0.50",
      "March 31, 2024",
      "April 25, 2024",
      statements[2]?.statement_id as string,
      f.accountId,
      f.customerId,
    ]) {
      expect(text).toContain(shown);
    }
    expect((await renders(f.partnerId, "rendered")).map((r) => r.statement_id).sort()).toEqual(
      statements.map((s) => s.statement_id).sort(),
    );
  });

  it("announces the first document with statement.pdf_available, once", async () => {
    const f = await seedAccount({ documents: "rendered" });
    const statement = monthlyStatement(f.accountId, 1);
    await importData({ statements: [statement] });
    await untilRendered(f, 1);
    const types = await eventually(
      () => eventTypes(f, statement.statement_id),
      (found) => found.length === 2,
    );
    expect(types).toEqual(["statement.created", "statement.pdf_available"]);
  });

  it("renders the same bytes again when asked, and stores nothing twice", async () => {
    const f = await seedAccount({ documents: "rendered" });
    const statement = monthlyStatement(f.accountId, 1);
    await importData({ statements: [statement] });
    const [first] = await untilRendered(f, 1);
    const before = await download(first as Listed);
    const asked = await operator("POST", `/statements/${statement.statement_id}/render`);
    expect(await expectJson(asked, 202)).toEqual({
      statement_id: statement.statement_id,
      status: "pending",
      generation: 1,
    });
    await eventually(
      () => renders(f.partnerId, "rendered"),
      (rows) => rows.some((r) => r.statement_id === statement.statement_id),
    );
    const [again] = await listed(f);
    expect(await download(again as Listed)).toEqual(before);
    const objects = await env.PDFS.list({ prefix: `statements/${statement.statement_id}/` });
    expect(objects.objects).toHaveLength(1);
    expect(await eventTypes(f, statement.statement_id)).toEqual([
      "statement.created",
      "statement.pdf_available",
    ]);
  });

  it("renders nothing for a product whose documents are uploaded", async () => {
    const f = await seedAccount({ documents: "uploaded" });
    const statement = monthlyStatement(f.accountId, 1);
    await importData({ statements: [statement] });
    // The import's own batch writes no render: nothing is pending, nothing is queued.
    expect(await renders(f.partnerId, "pending")).toEqual([]);
    const [row] = await listed(f);
    expect(row?.pdf).toBeUndefined();
    const res = await operator("PUT", `/statements/${statement.statement_id}/pdf`, pdfBytes(), {
      "content-type": "application/pdf",
    });
    expect(res.status).toBe(204);
    const [uploaded] = await listed(f);
    expect(await download(uploaded as Listed)).toEqual(pdfBytes());
  });

  it("keeps an upload over a rendered document, announced once", async () => {
    const f = await seedAccount({ documents: "rendered" });
    const statement = monthlyStatement(f.accountId, 1);
    await importData({ statements: [statement] });
    await untilRendered(f, 1);
    const upload = pdfBytes("the programme's own document");
    const res = await operator("PUT", `/statements/${statement.statement_id}/pdf`, upload, {
      "content-type": "application/pdf",
    });
    expect(res.status).toBe(204);
    const [row] = await listed(f);
    expect(await download(row as Listed)).toEqual(upload);
    expect((await renders(f.partnerId, "superseded")).map((r) => r.statement_id)).toEqual([
      statement.statement_id,
    ]);
    expect(await eventTypes(f, statement.statement_id)).toEqual([
      "statement.created",
      "statement.pdf_available",
    ]);
  });

  it("switches a product between rendered and uploaded documents, for new statements", async () => {
    const f = await seedAccount({ documents: "uploaded" });
    const switched = await operator("PATCH", `/products/${f.merchantKey}`, {
      documents: "rendered",
    });
    expect((await expectJson<{ documents: string }>(switched, 200)).documents).toBe("rendered");
    await importData({ statements: [monthlyStatement(f.accountId, 1)] });
    await untilRendered(f, 1);
  });
});
