// Signed PDF links: valid until as_of + 1 h, bound to their statement, no API key needed.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fromBase64Url, toBase64Url } from "../../src/domain/encoding";
import { api, expectJson, operator } from "../support/api";
import { versionsWith } from "../support/bundle-versions";
import { pdfBytes, seedAccount, statementsPath } from "../support/fixtures";
import { webCryptoHmac } from "../support/hmac";
import { shardOf } from "../support/shards";
import { request } from "../support/worker";

interface Listed {
  data: { statement_id: string; as_of: string; pdf_url?: string }[];
}

async function seedWithPdf() {
  const f = await seedAccount({ statements: 2 });
  const id = `${f.accountId}_st_002`;
  const upload = await operator("PUT", `/statements/${id}/pdf`, pdfBytes("two"), {
    "content-type": "application/pdf",
  });
  expect(upload.status).toBe(204);
  return { ...f, id };
}

/** The path and query of an absolute link, to send through the Worker. */
const local = (url: string) => url.replace(/^http:\/\/api\.test/, "");

/**
 * HMAC-SHA-256 under the signing secret of the JSON array of `parts`, URL-safe base64 without
 * padding: how links and page tokens have been signed since they were introduced, computed here
 * independently of the service's code.
 */
async function expectedMac(parts: string[]): Promise<string> {
  return toBase64Url(await webCryptoHmac(env.SIGNING_SECRET as string, JSON.stringify(parts)));
}

afterEach(() => {
  vi.useRealTimers();
});

describe("statement PDF links", () => {
  it("streams the PDF with content type, length and ETag", async () => {
    const f = await seedWithPdf();
    const { data } = await expectJson<Listed>(await api(statementsPath(f), { key: f.key }), 200);
    const url = data[0]?.pdf_url as string;
    expect(url).toMatch(/^http:\/\/api\.test\/files\/statements\/.+\/pdf\?expires=\d+&signature=/);
    const res = await request(local(url));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-length")).toBe(String(pdfBytes("two").byteLength));
    expect(res.headers.get("etag")).toMatch(/^".+"$/);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(pdfBytes("two"));
  });

  it("answers 304 to a conditional request for the same document", async () => {
    const f = await seedWithPdf();
    const { data } = await expectJson<Listed>(await api(statementsPath(f), { key: f.key }), 200);
    const url = local(data[0]?.pdf_url as string);
    const etag = (await request(url)).headers.get("etag") as string;
    const res = await request(url, { headers: { "if-none-match": etag } });
    expect(res.status).toBe(304);
    expect(res.headers.get("etag")).toBe(etag);
    expect(await res.text()).toBe("");
  });

  it("answers HEAD with the headers and no body", async () => {
    const f = await seedWithPdf();
    const { data } = await expectJson<Listed>(await api(statementsPath(f), { key: f.key }), 200);
    const res = await request(local(data[0]?.pdf_url as string), { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-length")).toBe(String(pdfBytes("two").byteLength));
    expect(await res.text()).toBe("");
  });

  it("omits pdf_url when no PDF is stored", async () => {
    const f = await seedWithPdf();
    const { data } = await expectJson<Listed>(await api(statementsPath(f), { key: f.key }), 200);
    expect(data[0]?.pdf_url).toBeDefined();
    expect(data[1]).not.toHaveProperty("pdf_url");
  });

  it("accepts the link at as_of + 3599 s and rejects it at as_of + 3601 s", async () => {
    const f = await seedWithPdf();
    vi.useFakeTimers({ toFake: ["Date"] });
    const issued = new Date("2026-11-25T12:00:00.000Z");
    vi.setSystemTime(issued);
    const { data } = await expectJson<Listed>(await api(statementsPath(f), { key: f.key }), 200);
    expect(data[0]?.as_of).toBe(issued.toISOString());
    const url = local(data[0]?.pdf_url as string);

    vi.setSystemTime(issued.getTime() + 3599_000);
    expect((await request(url)).status).toBe(200);

    vi.setSystemTime(issued.getTime() + 3601_000);
    const expired = await request(url);
    const body = await expectJson<{ error: { type: string } }>(expired, 403);
    expect(body.error.type).toBe("FORBIDDEN_ERROR");
  });

  it("rejects an altered signature, an altered expiry and a truncated link", async () => {
    const f = await seedWithPdf();
    const { data } = await expectJson<Listed>(await api(statementsPath(f), { key: f.key }), 200);
    const url = new URL(data[0]?.pdf_url as string);
    const signature = url.searchParams.get("signature") as string;
    const expires = url.searchParams.get("expires") as string;
    const flip = (text: string, at: number) =>
      `${text.slice(0, at)}${text[at] === "A" ? "B" : "A"}${text.slice(at + 1)}`;
    // The last character carries two spare bits: a same-bytes variant must fail too.
    const last = signature.at(-1) as string;
    const spareBits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const sameBytes = spareBits[spareBits.indexOf(last) ^ 1] as string;
    const variants = [
      `${url.pathname}?expires=${expires}&signature=${flip(signature, 10)}`,
      `${url.pathname}?expires=${expires}&signature=${signature.slice(0, -1)}${sameBytes}`,
      `${url.pathname}?expires=${Number(expires) + 1000}&signature=${signature}`,
      `${url.pathname}?expires=${expires}&signature=${signature.slice(0, 20)}`,
      `${url.pathname}?expires=${expires}`,
      `${url.pathname}?signature=${signature}`,
      url.pathname,
    ];
    for (const path of variants) {
      const res = await request(path);
      const body = await expectJson<{ error: { type: string } }>(res, 403);
      expect(body.error.type).toBe("FORBIDDEN_ERROR");
    }
  });

  it("signs each link under a key derived from its expiry and shard, and tokens as before", async () => {
    const f = await seedAccount({ statements: 3 });
    for (const month of ["002", "003"]) {
      await operator("PUT", `/statements/${f.accountId}_st_${month}/pdf`, pdfBytes(month), {
        "content-type": "application/pdf",
      });
    }
    const page = await expectJson<Listed & { next_page_token: string }>(
      await api(statementsPath(f, "?limit=2"), { key: f.key }),
      200,
    );
    expect(page.data).toHaveLength(2);
    // A link's signature is the code of the statement's shard, then the first 16 bytes of the
    // statement id's HMAC under the key its expiry and shard derive, which signs the code too.
    const shard = await shardOf(f.partnerId);
    for (const statement of page.data) {
      const url = new URL(statement.pdf_url as string);
      const expires = url.searchParams.get("expires") as string;
      const key = fromBase64Url(await expectedMac(["statement-pdf:v2", expires, shard]));
      const tag = await webCryptoHmac(key as Uint8Array, statement.statement_id);
      const signature = fromBase64Url(url.searchParams.get("signature") as string) as Uint8Array;
      expect(new TextDecoder().decode(signature.subarray(0, 2))).toBe(shard);
      expect(toBase64Url(signature.subarray(2))).toBe(toBase64Url(tag.subarray(0, 16)));
    }
    const [payload, mac] = page.next_page_token.split(".");
    const binding = [f.partnerId, "sandbox", f.merchantKey, f.customerId, f.accountId];
    expect(mac).toBe(await expectedMac(["statement-page:v1", ...binding, payload as string]));
  });

  it("still serves a link signed before, one full MAC of the id, expiry and shard", async () => {
    const f = await seedWithPdf();
    const shard = await shardOf(f.partnerId);
    const expires = String(Date.now() + 60_000);
    const mac = fromBase64Url(await expectedMac(["statement-pdf:v1", f.id, expires, shard]));
    const signature = toBase64Url(
      new Uint8Array([...new TextEncoder().encode(shard), ...(mac ?? [])]),
    );
    const path = `/files/statements/${encodeURIComponent(f.id)}/pdf`;
    const served = await request(`${path}?expires=${expires}&signature=${signature}`);
    expect(served.status).toBe(200);
    expect(new TextDecoder().decode(await served.arrayBuffer())).toContain("two");
    const altered = await expectedMac([
      "statement-pdf:v1",
      f.id,
      String(Number(expires) + 1),
      shard,
    ]);
    const forged = toBase64Url(
      new Uint8Array([...new TextEncoder().encode(shard), ...(fromBase64Url(altered) ?? [])]),
    );
    const refused = await request(`${path}?expires=${expires}&signature=${forged}`);
    expect(refused.status).toBe(403);
  });

  it("rejects a link signed for another statement", async () => {
    const f = await seedWithPdf();
    const other = `${f.accountId}_st_001`;
    await operator("PUT", `/statements/${other}/pdf`, pdfBytes("one"), {
      "content-type": "application/pdf",
    });
    const { data } = await expectJson<Listed>(await api(statementsPath(f), { key: f.key }), 200);
    const url = new URL(data[0]?.pdf_url as string);
    const foreign = `${url.pathname.replace(f.id, other)}${url.search}`;
    expect((await request(foreign)).status).toBe(403);
  });

  it("answers 404 once the statement has been hidden", async () => {
    const f = await seedWithPdf();
    const { data } = await expectJson<Listed>(await api(statementsPath(f), { key: f.key }), 200);
    const url = local(data[0]?.pdf_url as string);
    expect((await request(url)).status).toBe(200);
    expect((await operator("POST", `/statements/${f.id}/hide`)).status).toBe(204);
    const res = await request(url);
    const body = await expectJson<{ error: { type: string } }>(res, 404);
    expect(body.error.type).toBe("STATEMENT_NOT_FOUND_ERROR");
  });

  it("gives every link of a page the same expiry, one hour after as_of", async () => {
    const f = await seedAccount({ statements: 3 });
    for (const month of ["001", "002", "003"]) {
      await operator("PUT", `/statements/${f.accountId}_st_${month}/pdf`, pdfBytes(month), {
        "content-type": "application/pdf",
      });
    }
    const { data } = await expectJson<Listed>(await api(statementsPath(f), { key: f.key }), 200);
    const expiries = data.map((s) => new URL(s.pdf_url as string).searchParams.get("expires"));
    const asOf = Date.parse(data[0]?.as_of as string);
    expect(new Set(expiries)).toEqual(new Set([String(asOf + 3600_000)]));
    expect(new Set(data.map((s) => s.as_of)).size).toBe(1);
  });

  it.each(versionsWith("replacePdfUrlWithPdfObject"))(
    "shows %s clients a pdf object with the same expiry",
    async (version) => {
      const f = await seedWithPdf();
      const res = await api(statementsPath(f), { key: f.key, version });
      const { data } = await expectJson<{
        data: { as_of: string; pdf?: { url: string; expires_at: string }; pdf_url?: string }[];
      }>(res, 200);
      const first = data[0];
      expect(first).not.toHaveProperty("pdf_url");
      expect(first?.pdf?.expires_at).toBe(
        new Date(Date.parse(first?.as_of as string) + 3600_000).toISOString(),
      );
      expect((await request(local(first?.pdf?.url as string))).status).toBe(200);
    },
  );
});
