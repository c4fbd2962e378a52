// HTTP semantics of the PDF route, per RFC 9110: preconditions in the order of §13.2.2, malformed
// fields ignored (never a 5xx), single byte ranges (§14), HEAD, Last-Modified and caching.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import app from "../../src/index";
import { api, expectJson, operator } from "../support/api";
import { executionContext } from "../support/app-env";
import { StorageProbe } from "../support/faulty-storage";
import { seedAccount, statementsPath } from "../support/fixtures";
import { BASE, request } from "../support/worker";

/** A document long enough for ranges to be told apart. */
const DOCUMENT = new TextEncoder().encode(`%PDF-1.4\n% ${"0123456789".repeat(10)}\n%%EOF\n`);
const SIZE = DOCUMENT.byteLength;

let link: string;
let etag: string;
let lastModified: string;

const get = (headers: Record<string, string> = {}, method = "GET") =>
  request(link, { method, headers });

async function bytesOf(res: Response): Promise<Uint8Array> {
  return new Uint8Array(await res.arrayBuffer());
}

beforeAll(async () => {
  const f = await seedAccount({ statements: 1 });
  const upload = await operator("PUT", `/statements/${f.accountId}_st_001/pdf`, DOCUMENT, {
    "content-type": "application/pdf",
  });
  expect(upload.status).toBe(204);
  const page = await expectJson<{ data: { pdf_url: string }[] }>(
    await api(statementsPath(f), { key: f.key }),
    200,
  );
  link = String(page.data[0]?.pdf_url).replace(BASE, "");
  const res = await get();
  etag = res.headers.get("etag") as string;
  lastModified = res.headers.get("last-modified") as string;
  await res.arrayBuffer();
});

/** The HTTP-date one second before or after Last-Modified. */
function shifted(seconds: number): string {
  return new Date(Date.parse(lastModified) + seconds * 1000).toUTCString();
}

describe("a plain download", () => {
  it("sends the validators, Accept-Ranges and a private cache lifetime bounded by the link", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(await bytesOf(res)).toEqual(DOCUMENT);
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(lastModified).toMatch(
      /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
    );
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("content-length")).toBe(String(SIZE));
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const cache = /^private, max-age=(\d+)$/.exec(res.headers.get("cache-control") ?? "");
    expect(cache).not.toBeNull();
    expect(Number(cache?.[1])).toBeLessThanOrEqual(3600);
  });

  it("answers HEAD with exactly the headers of GET and no body", async () => {
    const [full, head] = [await get(), await get({}, "HEAD")];
    await full.arrayBuffer();
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const names = ["content-type", "content-length", "etag", "last-modified", "accept-ranges"];
    for (const name of names) expect(head.headers.get(name)).toBe(full.headers.get(name));
  });
});

describe("If-None-Match and If-Modified-Since", () => {
  it("answers 304 with the validators and no body when a tag matches, weakly or in a list", async () => {
    for (const value of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const res = await get({ "if-none-match": value });
      expect(res.status, value).toBe(304);
      expect(res.headers.get("etag")).toBe(etag);
      expect(res.headers.get("last-modified")).toBe(lastModified);
      expect(res.headers.get("cache-control")).toMatch(/^private, max-age=\d+$/);
      expect(await res.text()).toBe("");
    }
  });

  it("sends the document when no tag matches", async () => {
    const res = await get({ "if-none-match": '"other", W/"another"' });
    expect(res.status).toBe(200);
    expect(await bytesOf(res)).toEqual(DOCUMENT);
  });

  it("ignores a malformed If-None-Match instead of failing", async () => {
    for (const value of ["abc", '"unterminated', "W/", 'W/"a" junk', ",,", '"a" "b"']) {
      const res = await get({ "if-none-match": value });
      expect(res.status, value).toBe(200);
      await res.arrayBuffer();
    }
  });

  it("answers 304 to If-Modified-Since at or after Last-Modified, in all three date formats", async () => {
    const date = new Date(Date.parse(lastModified));
    const day = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][
      date.getUTCDay()
    ] as string;
    const [, dd, mon, yyyy, time] = /^\w+, (\d{2}) (\w{3}) (\d{4}) (\S+) GMT$/.exec(
      lastModified,
    ) as RegExpExecArray;
    const rfc850 = `${day}, ${dd}-${mon}-${yyyy?.slice(2)} ${time} GMT`;
    const asctime = `${day.slice(0, 3)} ${mon} ${String(Number(dd)).padStart(2, " ")} ${time} ${yyyy}`;
    for (const value of [lastModified, shifted(60), rfc850, asctime]) {
      const res = await get({ "if-modified-since": value });
      expect(res.status, value).toBe(304);
    }
    const older = await get({ "if-modified-since": shifted(-1) });
    expect(older.status).toBe(200);
    await older.arrayBuffer();
  });

  it("ignores If-Modified-Since when If-None-Match is present, and when it is malformed", async () => {
    const withTag = await get({ "if-none-match": '"other"', "if-modified-since": shifted(60) });
    expect(withTag.status).toBe(200);
    await withTag.arrayBuffer();
    for (const value of ["yesterday", "Mon, 32 Jan 2026 00:00:00 GMT", `${lastModified}, x`]) {
      const res = await get({ "if-modified-since": value });
      expect(res.status, value).toBe(200);
      await res.arrayBuffer();
    }
  });
});

describe("If-Match and If-Unmodified-Since", () => {
  it("sends the document when If-Match matches strongly, or is *", async () => {
    for (const value of [etag, `"other", ${etag}`, "*"]) {
      const res = await get({ "if-match": value });
      expect(res.status, value).toBe(200);
      await res.arrayBuffer();
    }
  });

  it("answers 412 when no tag matches strongly: a weak tag never does", async () => {
    for (const value of ['"other"', `W/${etag}`]) {
      const res = await get({ "if-match": value });
      const body = await expectJson<{ error: { type: string } }>(res, 412);
      expect(body.error.type).toBe("PRECONDITION_FAILED_ERROR");
    }
  });

  it("answers 412 when modified after If-Unmodified-Since, not at or before", async () => {
    expect((await get({ "if-unmodified-since": shifted(-1) })).status).toBe(412);
    for (const value of [lastModified, shifted(60), "not a date"]) {
      const res = await get({ "if-unmodified-since": value });
      expect(res.status, value).toBe(200);
      await res.arrayBuffer();
    }
  });

  it("evaluates If-Match first: it overrides If-Unmodified-Since and comes before If-None-Match", async () => {
    const matched = await get({ "if-match": etag, "if-unmodified-since": shifted(-1) });
    expect(matched.status).toBe(200);
    await matched.arrayBuffer();
    const failed = await get({ "if-match": '"other"', "if-none-match": etag });
    expect(failed.status).toBe(412);
  });

  it("ignores a malformed If-Match", async () => {
    const res = await get({ "if-match": "not-a-tag" });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });
});

describe("ranges", () => {
  it("serves a single byte range with 206 and Content-Range", async () => {
    const cases: [string, number, number][] = [
      ["bytes=0-4", 0, 4],
      ["bytes=10-", 10, SIZE - 1],
      ["bytes=-3", SIZE - 3, SIZE - 1],
      ["bytes=5-100000", 5, SIZE - 1],
      [`bytes=-${SIZE + 50}`, 0, SIZE - 1],
      ["BYTES = 2 - 2", 2, 2],
    ];
    for (const [range, first, last] of cases) {
      const res = await get({ range });
      expect(res.status, range).toBe(206);
      expect(res.headers.get("content-range")).toBe(`bytes ${first}-${last}/${SIZE}`);
      expect(res.headers.get("content-length")).toBe(String(last - first + 1));
      expect(await bytesOf(res)).toEqual(DOCUMENT.slice(first, last + 1));
    }
  });

  it("answers 416 with the size when the range lies outside the document", async () => {
    for (const range of [`bytes=${SIZE}-`, `bytes=${SIZE + 10}-${SIZE + 20}`, "bytes=-0"]) {
      const res = await get({ range });
      expect(res.headers.get("content-range"), range).toBe(`bytes */${SIZE}`);
      const body = await expectJson<{ error: { type: string } }>(res, 416);
      expect(body.error.type).toBe("RANGE_NOT_SATISFIABLE_ERROR");
    }
  });

  it("sends the whole document for a malformed, multiple or foreign-unit range", async () => {
    for (const range of ["bytes=5-2", "bytes=0-1,4-5", "items=0-1", "bytes=abc", "bytes=-"]) {
      const res = await get({ range });
      expect(res.status, range).toBe(200);
      expect(await bytesOf(res)).toEqual(DOCUMENT);
    }
  });

  it("honours If-Range only when its validator is the current one", async () => {
    const partial = [etag, lastModified];
    for (const ifRange of partial) {
      const res = await get({ range: "bytes=0-4", "if-range": ifRange });
      expect(res.status, ifRange).toBe(206);
      await res.arrayBuffer();
    }
    for (const ifRange of ['"other"', `W/${etag}`, shifted(-1), "garbage"]) {
      const res = await get({ range: "bytes=0-4", "if-range": ifRange });
      expect(res.status, ifRange).toBe(200);
      expect(await bytesOf(res)).toEqual(DOCUMENT);
    }
  });

  it("ignores Range on HEAD, and evaluates preconditions before it", async () => {
    const head = await get({ range: "bytes=0-4" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(SIZE));
    expect((await get({ "if-none-match": etag }, "HEAD")).status).toBe(304);
    expect((await get({ range: "bytes=0-4", "if-none-match": etag })).status).toBe(304);
    expect((await get({ range: "bytes=0-4", "if-match": '"other"' })).status).toBe(412);
  });
});

describe("what a download reads from R2", () => {
  /** The answer to `headers` and the R2 calls it made, in order. */
  async function reads(headers: Record<string, string>, method = "GET") {
    const probe = new StorageProbe();
    const ctx = executionContext();
    const res = await app.fetch(
      new Request(`${BASE}${link}`, { method, headers }),
      { ...env, PDFS: probe.bucket(env.PDFS) },
      ctx,
    );
    await res.arrayBuffer();
    await ctx.settled();
    return { status: res.status, calls: probe.calls.map((call) => call.op) };
  }

  it("reads the document once for a plain GET, and only its metadata when no byte is sent", async () => {
    expect(await reads({})).toEqual({ status: 200, calls: ["get"] });
    expect(await reads({}, "HEAD")).toEqual({ status: 200, calls: ["head"] });
    expect(await reads({ "if-none-match": etag })).toEqual({ status: 304, calls: ["head"] });
    expect(await reads({ "if-match": '"other"' })).toEqual({ status: 412, calls: ["head"] });
    expect(await reads({ range: `bytes=${SIZE}-` })).toEqual({ status: 416, calls: ["head"] });
  });

  it("reads the metadata, then the bytes, when preconditions or a range decide what is sent", async () => {
    expect(await reads({ "if-none-match": '"other"' })).toEqual({
      status: 200,
      calls: ["head", "get"],
    });
    expect(await reads({ range: "bytes=0-4" })).toEqual({ status: 206, calls: ["head", "get"] });
  });
});
