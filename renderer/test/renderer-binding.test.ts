// The renderer Worker as the API Worker will use it: bound by a Service Binding, called over RPC
// from the Workers runtime, stateless, and clear about input it cannot draw.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accentOf, contrastOnWhite } from "../src/accent";
import type { StatementDocumentInput } from "../src/statement-document";
import { JPEG_LOGO, PNG_LOGO } from "./logo-fixtures";
import { readObjects } from "./pdf-objects";
import { EVERY_LINE, QUIET_CYCLE, withLogo } from "./sample-statements";

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
