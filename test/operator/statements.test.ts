import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, type ErrorBody, expectJson, operator, type StatementList } from "../support/api";
import { ALL_VERSIONS } from "../support/bundle-versions";
import {
  importData,
  monthlyStatement,
  pdfBytes,
  seedAccount,
  statementsPath,
  uniqueId,
} from "../support/fixtures";
import { BASE, OPERATOR_TOKEN, request } from "../support/worker";

const MIB = 1024 * 1024;

/** The first page of a fixture's statements, read with its own key. */
async function listStatements(
  f: { key: string; customerId: string; accountId: string },
  version?: string,
): Promise<StatementList> {
  return expectJson<StatementList>(await api(statementsPath(f), { key: f.key, version }), 200);
}

/** The path of a listed statement's signed PDF link (served by this same Worker). */
function linkPath(statement: Record<string, unknown> | undefined): string {
  const url = statement?.pdf_url;
  if (typeof url !== "string") throw new Error("the statement carries no pdf_url");
  return url.slice(BASE.length);
}

describe("operator PDF upload", () => {
  const pdfHeaders = { "content-type": "application/pdf" };

  it("stores the PDF with 204 and serves it through the statement's signed link", async () => {
    const f = await seedAccount({ statements: 1 });
    const statementId = `${f.accountId}_st_001`;
    const before = await listStatements(f);
    expect(before.data[0]).not.toHaveProperty("pdf_url");

    const bytes = pdfBytes("upload");
    const put = await operator("PUT", `/statements/${statementId}/pdf`, bytes, pdfHeaders);
    expect(put.status).toBe(204);
    expect(await put.text()).toBe("");

    const after = await listStatements(f);
    const download = await request(linkPath(after.data[0]));
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
  });

  it("replaces a PDF uploaded before", async () => {
    const f = await seedAccount({ statements: 1 });
    const statementId = `${f.accountId}_st_001`;
    await operator("PUT", `/statements/${statementId}/pdf`, pdfBytes("first"), pdfHeaders);
    const second = pdfBytes("second");
    expect(
      (await operator("PUT", `/statements/${statementId}/pdf`, second, pdfHeaders)).status,
    ).toBe(204);
    const list = await listStatements(f);
    const download = await request(linkPath(list.data[0]));
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(second);
  });

  it("accepts a content type with parameters", async () => {
    const f = await seedAccount({ statements: 1 });
    const res = await operator("PUT", `/statements/${f.accountId}_st_001/pdf`, pdfBytes(), {
      "content-type": "Application/PDF; name=statement.pdf",
    });
    expect(res.status).toBe(204);
  });

  it("answers 415 for any other content type", async () => {
    const f = await seedAccount({ statements: 1 });
    const path = `/statements/${f.accountId}_st_001/pdf`;
    for (const type of ["application/json", "text/plain", "application/octet-stream", "pdf"]) {
      const res = await operator("PUT", path, pdfBytes(), { "content-type": type });
      const body = await expectJson<ErrorBody>(res, 415);
      expect(body.error.type).toBe("UNSUPPORTED_MEDIA_TYPE_ERROR");
    }
    const none = await operator("PUT", path, pdfBytes());
    expect(none.status).toBe(415);
  });

  it("answers 400 for a body that does not start with %PDF-", async () => {
    const f = await seedAccount({ statements: 1 });
    const path = `/statements/${f.accountId}_st_001/pdf`;
    for (const body of ["", "%PDF", "%pdf-1.4\n", " %PDF-1.4\n", "<html></html>"]) {
      const res = await operator("PUT", path, body, pdfHeaders);
      const error = await expectJson<ErrorBody>(res, 400);
      expect(error.error.type, JSON.stringify(body)).toBe("INVALID_REQUEST_ERROR");
    }
    const list = await listStatements(f);
    expect(list.data[0]).not.toHaveProperty("pdf_url");
  });

  it("accepts exactly 20 MiB and answers 413 for 20 MiB + 1 byte", async () => {
    const f = await seedAccount({ statements: 1 });
    const path = `/statements/${f.accountId}_st_001/pdf`;
    const big = new Uint8Array(20 * MIB + 1);
    big.set(pdfBytes());
    const tooLarge = await operator("PUT", path, big, pdfHeaders);
    expect((await expectJson<ErrorBody>(tooLarge, 413)).error.type).toBe("PAYLOAD_TOO_LARGE_ERROR");
    const list = await listStatements(f);
    expect(list.data[0]).not.toHaveProperty("pdf_url");

    const exact = await operator("PUT", path, big.subarray(0, 20 * MIB), pdfHeaders);
    expect(exact.status).toBe(204);
  });

  it("answers 413 for an oversized body sent without a Content-Length", async () => {
    const f = await seedAccount({ statements: 1 });
    const chunk = new Uint8Array(MIB);
    chunk.set(pdfBytes());
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 20 * MIB) return controller.close();
        const size = sent + MIB > 20 * MIB ? 20 * MIB + 1 - sent : MIB;
        controller.enqueue(chunk.slice(0, size));
        sent += size;
      },
    });
    const upload = new Request(`${BASE}/operator/v1/statements/${f.accountId}_st_001/pdf`, {
      method: "PUT",
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/pdf" },
      body: stream,
    });
    expect(upload.headers.get("content-length")).toBeNull();
    const res = await exports.default.fetch(upload);
    expect((await expectJson<ErrorBody>(res, 413)).error.type).toBe("PAYLOAD_TOO_LARGE_ERROR");
  });

  it("answers 404 for an unknown statement", async () => {
    const res = await operator("PUT", `/statements/${uniqueId("st")}/pdf`, pdfBytes(), pdfHeaders);
    expect((await expectJson<ErrorBody>(res, 404)).error.type).toBe("NOT_FOUND_ERROR");
  });
});

describe("operator hide", () => {
  it("hides a statement from every later read, idempotently, with 204", async () => {
    const f = await seedAccount({ statements: 3 });
    const hiddenId = `${f.accountId}_st_002`;
    const first = await operator("POST", `/statements/${hiddenId}/hide`);
    expect(first.status).toBe(204);
    expect(await first.text()).toBe("");
    expect((await operator("POST", `/statements/${hiddenId}/hide`)).status).toBe(204);

    for (const version of ALL_VERSIONS) {
      const list = await listStatements(f, version);
      expect(list.data.map((s) => s.statement_id)).toEqual([
        `${f.accountId}_st_003`,
        `${f.accountId}_st_001`,
      ]);
    }
  });

  it("stays hidden when the same statement is imported again", async () => {
    const f = await seedAccount({ statements: 2 });
    await operator("POST", `/statements/${f.accountId}_st_002/hide`);
    await importData({ statements: [monthlyStatement(f.accountId, 2)] });
    const list = await listStatements(f);
    expect(list.data.map((s) => s.statement_id)).toEqual([`${f.accountId}_st_001`]);
  });

  it("turns a PDF link issued before hiding into a 404", async () => {
    const f = await seedAccount({ statements: 1 });
    const statementId = `${f.accountId}_st_001`;
    await operator("PUT", `/statements/${statementId}/pdf`, pdfBytes(), {
      "content-type": "application/pdf",
    });
    const list = await listStatements(f);
    const link = linkPath(list.data[0]);
    expect((await request(link)).status).toBe(200);

    expect((await operator("POST", `/statements/${statementId}/hide`)).status).toBe(204);
    const gone = await request(link);
    expect(gone.status).toBe(404);
    expect(gone.headers.get("content-type")).not.toBe("application/pdf");
    expect((await request(link, { method: "HEAD" })).status).toBe(404);
  });

  it("answers 404 for an unknown statement", async () => {
    const res = await operator("POST", `/statements/${uniqueId("st")}/hide`);
    expect((await expectJson<ErrorBody>(res, 404)).error.type).toBe("NOT_FOUND_ERROR");
  });
});
