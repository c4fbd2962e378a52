// A logo is one well-formed PNG or JPEG whose decoding is bounded before anything decodes it:
// a decompression bomb, a second IHDR, chunks cut short, a bad CRC or a JPEG declaring a huge
// frame is refused with 400 naming the problem, through the operator API and the dashboard alike,
// and nothing is stored; a logo stored before this check never reaches the renderer. Every colour
// type and bit depth of PNG, interlaced or not, is still accepted and drawn.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { JPEG_LOGO, PNG_LOGO } from "../../renderer/test/logo-fixtures";
import type { StatementRenderer } from "../../src/documents/render-input";
import { type ErrorBody, expectJson, operator } from "../support/api";
import { seedTeam } from "../support/dashboard";
import { seedAccount } from "../support/fixtures";
import {
  chunk,
  concat,
  decompressionBomb,
  deflate,
  ihdr,
  jpegOfSize,
  type PngShape,
  png,
  pngImage,
  rawImageBytes,
} from "../support/images";
import { consume, pendingRender, renderOf } from "../support/renders";
import { partnerDatabase } from "../support/shards";

const base64 = (bytes: Uint8Array) => {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
};

function setLogo(merchantKey: string, bytes: Uint8Array, mediaType = "image/png") {
  return operator("PATCH", `/products/${merchantKey}`, {
    logo: { media_type: mediaType, data: base64(bytes), alt_text: "Acme" },
  });
}

/** The 400's one detail for a logo refused. */
async function refusal(merchantKey: string, bytes: Uint8Array, mediaType?: string) {
  const res = await setLogo(merchantKey, bytes, mediaType);
  const error = (await expectJson<ErrorBody>(res, 400)).error;
  expect(error.type).toBe("INVALID_REQUEST_ERROR");
  expect(error.details).toHaveLength(1);
  return error.details?.[0];
}

/** Nothing of a logo kept: none in the bucket, none on the product, no audit row. */
async function expectNothingStored(f: { partnerId: string; merchantKey: string }) {
  const objects = await env.PDFS.list({
    prefix: `products/${encodeURIComponent(f.merchantKey)}/`,
  });
  expect(objects.objects).toEqual([]);
  const products = await operator("GET", `/partners/${f.partnerId}/products`);
  const [product] = (await expectJson<{ data: { logo: unknown }[] }>(products, 200)).data;
  expect(product?.logo).toBeNull();
  const audit = await operator("GET", `/partners/${f.partnerId}/audit?limit=50`);
  const entries = (await expectJson<{ data: { action: string }[] }>(audit, 200)).data;
  expect(entries.filter((e) => e.action === "product.presentation_changed")).toEqual([]);
}

/** The sample PNG's chunks, each as its own bytes (IHDR, pHYs, IDAT, IEND). */
function sampleChunks(): Uint8Array[] {
  const bytes = PNG_LOGO.bytes;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: Uint8Array[] = [];
  for (let at = 8; at < bytes.length; at += 12 + view.getUint32(at)) {
    chunks.push(bytes.slice(at, at + 12 + view.getUint32(at)));
  }
  return chunks;
}

const VALID_PNGS: [string, PngShape, { palette?: number; transparency?: Uint8Array }?][] = [
  ["1-bit greyscale", { width: 7, height: 5, bitDepth: 1, colourType: 0 }],
  [
    "16-bit greyscale, interlaced",
    { width: 9, height: 3, bitDepth: 16, colourType: 0, interlaced: true },
  ],
  ["16-bit truecolour", { width: 12, height: 12, bitDepth: 16, colourType: 2 }],
  [
    "4-bit palette with transparency",
    { width: 13, height: 4, bitDepth: 4, colourType: 3 },
    { palette: 16, transparency: new Uint8Array([0, 128]) },
  ],
  [
    "8-bit palette, interlaced, one pixel wide",
    { width: 1, height: 9, bitDepth: 8, colourType: 3, interlaced: true },
    { palette: 2 },
  ],
  ["greyscale with alpha", { width: 6, height: 6, bitDepth: 8, colourType: 4 }],
  [
    "16-bit RGBA, interlaced",
    { width: 33, height: 17, bitDepth: 16, colourType: 6, interlaced: true },
  ],
  ["RGBA at the size limit", { width: 1024, height: 1024, bitDepth: 8, colourType: 6 }],
];

describe("a logo's image", { timeout: 60_000 }, () => {
  it("is accepted as any well-formed PNG within the limits, or the sample JPEG", async () => {
    const f = await seedAccount();
    expect((await setLogo(f.merchantKey, PNG_LOGO.bytes)).status).toBe(200);
    expect((await setLogo(f.merchantKey, JPEG_LOGO.bytes, "image/jpeg")).status).toBe(200);
    for (const [name, shape, extra] of VALID_PNGS) {
      const res = await setLogo(f.merchantKey, await pngImage(shape, extra));
      expect(res.status, `${name}: ${await res.clone().text()}`).toBe(200);
    }
  });

  it("refuses a decompression bomb: 16 × 16 pixels whose data inflates to 64 MiB", async () => {
    const f = await seedAccount();
    const bomb = await decompressionBomb();
    expect(bomb.length).toBeLessThan(256 * 1024);
    expect(await refusal(f.merchantKey, bomb)).toBe(
      "logo.data: logo is not a well-formed PNG: its image data inflates to more than the 784 " +
        "bytes of a 16 × 16 image",
    );
    // Short data is as wrong as long data: the decoder would read past it.
    const short = png([
      ihdr({ width: 16, height: 16 }),
      chunk("IDAT", await deflate([new Uint8Array(700)])),
      chunk("IEND"),
    ]);
    expect(await refusal(f.merchantKey, short)).toBe(
      "logo.data: logo is not a well-formed PNG: its image data inflates to 700 bytes; a 16 × 16 " +
        "image needs 784",
    );
    await expectNothingStored(f);
  });

  it("refuses a second IHDR, or a first chunk that is not IHDR", async () => {
    const f = await seedAccount();
    const [header, phys, idat, end] = sampleChunks() as Uint8Array[];
    const huge = ihdr({ width: 60_000, height: 60_000 });
    expect(await refusal(f.merchantKey, png([header, huge, phys, idat, end] as Uint8Array[]))).toBe(
      "logo.data: logo is not a well-formed PNG: more than one IHDR chunk",
    );
    expect(await refusal(f.merchantKey, png([header, phys, idat, huge, end] as Uint8Array[]))).toBe(
      "logo.data: logo is not a well-formed PNG: more than one IHDR chunk",
    );
    // A text chunk first: its bytes sit where a size was once read from.
    const text = chunk("tEXt", new TextEncoder().encode("Title\0Acme"));
    expect(await refusal(f.merchantKey, png([text, header, idat, end] as Uint8Array[]))).toBe(
      "logo.data: logo is not a well-formed PNG: the first chunk must be IHDR; got tEXt",
    );
    expect(await refusal(f.merchantKey, png([huge, idat, end] as Uint8Array[]))).toBe(
      "logo.data: logo must be at most 1024 × 1024 pixels; got 60000 × 60000",
    );
    await expectNothingStored(f);
  });

  it("refuses chunks cut short, bad CRCs, and what does not belong", async () => {
    const f = await seedAccount();
    const bytes = PNG_LOGO.bytes;
    const [header, phys, idat, end] = sampleChunks() as Uint8Array[];
    const idatAt = 8 + (header as Uint8Array).length + (phys as Uint8Array).length;
    const cases: [Uint8Array, string][] = [
      [
        bytes.slice(0, idatAt + 100),
        `the IDAT chunk at byte ${idatAt} runs past the end of the file`,
      ],
      [
        bytes.slice(0, bytes.length - 12),
        `a chunk is cut short at byte ${bytes.length - 12} (no IEND chunk)`,
      ],
      [bytes.slice(0, 30), "the IHDR chunk at byte 8 runs past the end of the file"],
      [png([header, phys, end] as Uint8Array[]), "no IDAT chunk"],
      [concat([bytes, new Uint8Array([0])]), "1 bytes follow the IEND chunk"],
      [png([header, idat, phys, idat, end] as Uint8Array[]), "the IDAT chunks are not consecutive"],
      [png([header, chunk("ZZZZ"), idat, end] as Uint8Array[]), "unknown critical chunk ZZZZ"],
      [png([header, chunk("PLTE", new Uint8Array(3)), idat, end] as Uint8Array[]), "ok"],
      [
        png([ihdr({ width: 4, height: 4, colourType: 3 }), idat, end] as Uint8Array[]),
        "a palette image has no PLTE",
      ],
      [
        png([ihdr({ width: 4, height: 4, bitDepth: 4, colourType: 2 }), idat, end] as Uint8Array[]),
        "no colour type 2 of bit depth 4",
      ],
      [
        png([
          ihdr({ width: 16, height: 16 }),
          chunk("IDAT", new Uint8Array([0x78, 0x9c, 1, 2, 3])),
          end,
        ] as Uint8Array[]),
        "its image data is not a complete zlib stream",
      ],
    ];
    // One bit flipped in the image data, in a chunk's type (IDAT → HDAT), in IHDR's bit depth.
    for (const [flip, type, at] of [
      [idatAt + 20, "IDAT", idatAt],
      [idatAt + 4, "HDAT", idatAt],
      [8 + 16, "IHDR", 8],
    ] as const) {
      const corrupt = bytes.slice();
      corrupt[flip] = (corrupt[flip] as number) ^ 0x01;
      cases.push([corrupt, `the ${type} chunk at byte ${at} fails its CRC`]);
    }
    for (const [image, problem] of cases) {
      if (problem === "ok") {
        // A palette in a truecolour image is a suggestion the decoder may ignore: well-formed.
        expect((await setLogo(f.merchantKey, image)).status).toBe(200);
        await setLogo(f.merchantKey, PNG_LOGO.bytes); // the sample again, for the next case
        continue;
      }
      expect(await refusal(f.merchantKey, image), problem).toBe(
        `logo.data: logo is not a well-formed PNG: ${problem}`,
      );
    }
  });

  it("refuses a filter type that does not exist, counted row by row", async () => {
    const f = await seedAccount();
    const shape = { width: 5, height: 3 };
    const rows = new Uint8Array(rawImageBytes(shape));
    rows[2 * 16] = 7; // the third row's filter byte
    const image = png([ihdr(shape), chunk("IDAT", await deflate([rows])), chunk("IEND")]);
    expect(await refusal(f.merchantKey, image)).toBe(
      "logo.data: logo is not a well-formed PNG: a row has no valid filter type",
    );
    await expectNothingStored(f);
  });

  it("refuses a JPEG declaring huge dimensions, cut short, or not ending where it ends", async () => {
    const f = await seedAccount();
    const jpeg = JPEG_LOGO.bytes;
    expect(await refusal(f.merchantKey, jpegOfSize(60_000, 60_000), "image/jpeg")).toBe(
      "logo.data: logo must be at most 1024 × 1024 pixels; got 60000 × 60000",
    );
    expect(await refusal(f.merchantKey, jpegOfSize(360, 0), "image/jpeg")).toBe(
      "logo.data: logo must be at least 1 × 1 pixel; got 360 × 0",
    );
    expect(await refusal(f.merchantKey, jpeg.slice(0, 300), "image/jpeg")).toBe(
      "logo.data: logo is not a well-formed JPEG: the 0xFFC4 segment at byte 210 runs past the " +
        "end of the file",
    );
    expect(await refusal(f.merchantKey, jpeg.slice(0, jpeg.length - 2), "image/jpeg")).toBe(
      "logo.data: logo is not a well-formed JPEG: no end-of-image marker",
    );
    expect(await refusal(f.merchantKey, concat([jpeg, jpeg]), "image/jpeg")).toBe(
      `logo.data: logo is not a well-formed JPEG: ${jpeg.length} bytes follow the end of image`,
    );
    // No frame at all: start of image, then end of image.
    expect(
      await refusal(f.merchantKey, new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), "image/jpeg"),
    ).toBe("logo.data: logo is not a well-formed JPEG: no frame, or no scan of image data");
    // A lossless frame (SOF3) is refused by name: PDF viewers do not draw it.
    const lossless = jpeg.slice();
    const frameAt = lossless.findIndex((byte, i) => byte === 0xff && lossless[i + 1] === 0xc0);
    lossless[frameAt + 1] = 0xc3;
    expect(await refusal(f.merchantKey, lossless, "image/jpeg")).toMatch(
      /frame 0xFFC3 is not baseline or progressive DCT/,
    );
    await expectNothingStored(f);
  });

  it("is held to the same rules by the dashboard's form", async () => {
    const team = await seedTeam();
    const res = await team.admin.postMultipart(
      `/dashboard/documents/${team.merchantKey}`,
      { logo_alt_text: "Team" },
      { logo: new File([await decompressionBomb()], "logo.png", { type: "image/png" }) },
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("its image data inflates to more than the 784 bytes");
    await expectNothingStored({ partnerId: team.partnerId, merchantKey: team.merchantKey ?? "" });
  });
});

describe("a product's logo when its statements render", { timeout: 60_000 }, () => {
  it("is drawn in every PNG colour type and bit depth accepted", async () => {
    const f = await seedAccount();
    let calls = 0;
    const renderer: StatementRenderer = {
      render(input) {
        calls += 1;
        return env.STATEMENT_RENDERER.render(input);
      },
    };
    for (const [name, shape, extra] of VALID_PNGS) {
      expect((await setLogo(f.merchantKey, await pngImage(shape, extra))).status, name).toBe(200);
      const ref = await pendingRender(f);
      expect((await consume(ref, renderer)).acked, name).toBe(true);
      expect(await renderOf(f, ref.statement_id), name).toEqual({
        status: "rendered",
        error: null,
      });
    }
    expect(calls).toBe(VALID_PNGS.length);
  });

  it("never reaches the renderer when it was stored before these checks and is malformed", async () => {
    const f = await seedAccount();
    // As an upload stored it before its image was checked: straight into the bucket and the row.
    const key = `products/${encodeURIComponent(f.merchantKey)}/logo-bomb.png`;
    await env.PDFS.put(key, await decompressionBomb(), {
      httpMetadata: { contentType: "image/png" },
    });
    const db = await partnerDatabase(f.partnerId);
    await db
      .prepare(
        `UPDATE products SET logo_key = ?, logo_media_type = 'image/png', logo_alt_text = 'Acme'
         WHERE merchant_key = ?`,
      )
      .bind(key, f.merchantKey)
      .run();
    const ref = await pendingRender(f);
    let calls = 0;
    const renderer: StatementRenderer = {
      render() {
        calls += 1;
        return Promise.reject(new Error("must not be called"));
      },
    };
    // Input that cannot be drawn fails at once, naming the problem for the operator.
    expect((await consume(ref, renderer)).acked).toBe(true);
    expect(calls).toBe(0);
    expect(await renderOf(f, ref.statement_id)).toEqual({
      status: "failed",
      error:
        "RangeError: the product's logo cannot be drawn: logo is not a well-formed PNG: its " +
        "image data inflates to more than the 784 bytes of a 16 × 16 image",
    });
  });
});
