// PNG and JPEG bytes built chunk by chunk for the logo tests: well-formed images of every PNG
// colour type, and the malformed ones an attacker would send (a second IHDR, a decompression bomb,
// chunks cut short, bad CRCs, a JPEG declaring a huge frame). The CRC here is written out apart
// from the service's, so that a mistake in one does not hide in the other.
import { JPEG_LOGO } from "../../renderer/test/logo-fixtures";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function crc(bytes: Uint8Array): number {
  let c = ~0;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** One PNG chunk: length, type, data and the CRC of type and data. */
export function chunk(type: string, data: Uint8Array = new Uint8Array()): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(
    Array.from(type, (c) => c.charCodeAt(0)),
    4,
  );
  out.set(data, 8);
  view.setUint32(8 + data.length, crc(out.subarray(4, 8 + data.length)));
  return out;
}

/** The signature and the chunks. */
export function png(chunks: Uint8Array[]): Uint8Array {
  return concat([new Uint8Array(SIGNATURE), ...chunks]);
}

export interface PngShape {
  width: number;
  height: number;
  bitDepth?: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA. */
  colourType?: number;
  interlaced?: boolean;
}

export function ihdr({ width, height, bitDepth = 8, colourType = 2, interlaced }: PngShape) {
  const data = new Uint8Array(13);
  const view = new DataView(data.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  data.set([bitDepth, colourType, 0, 0, interlaced ? 1 : 0], 8);
  return chunk("IHDR", data);
}

/** zlib-deflates the parts as one stream (the format of a PNG's image data). */
export async function deflate(parts: Iterable<Uint8Array>): Promise<Uint8Array> {
  const stream = new CompressionStream("deflate");
  const writing = (async () => {
    const writer = stream.writable.getWriter();
    for (const part of parts) await writer.write(part);
    await writer.close();
  })();
  const out = new Uint8Array(await new Response(stream.readable).arrayBuffer());
  await writing;
  return out;
}

/** The filtered scanlines a `shape` image holds (every pass of an interlaced one), all zero. */
export function rawImageBytes(shape: PngShape): number {
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[shape.colourType ?? 2] as number;
  const bits = channels * (shape.bitDepth ?? 8);
  const rows = (w: number, h: number) => (w > 0 && h > 0 ? h * (1 + Math.ceil((w * bits) / 8)) : 0);
  if (!shape.interlaced) return rows(shape.width, shape.height);
  const passes = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
  ];
  return passes.reduce(
    (sum, [x0, y0, dx, dy]) =>
      sum +
      rows(
        Math.ceil(Math.max(0, shape.width - (x0 as number)) / (dx as number)),
        Math.ceil(Math.max(0, shape.height - (y0 as number)) / (dy as number)),
      ),
    0,
  );
}

/** A well-formed PNG of `shape`, every pixel index or sample 0; PLTE and tRNS as given. */
export async function pngImage(
  shape: PngShape,
  extra: { palette?: number; transparency?: Uint8Array } = {},
): Promise<Uint8Array> {
  const chunks = [ihdr(shape)];
  if (extra.palette) chunks.push(chunk("PLTE", new Uint8Array(extra.palette * 3).fill(0x40)));
  if (extra.transparency) chunks.push(chunk("tRNS", extra.transparency));
  chunks.push(chunk("IDAT", await deflate([new Uint8Array(rawImageBytes(shape))])));
  chunks.push(chunk("IEND"));
  return png(chunks);
}

/**
 * A 16 × 16 RGB PNG whose image data inflates to `inflated` bytes (its header allows 784): the
 * zeros compress about a thousandfold, so 64 MiB fit in a logo of well under its 256 KiB.
 */
export async function decompressionBomb(inflated = 64 * 1024 * 1024): Promise<Uint8Array> {
  const block = new Uint8Array(1024 * 1024);
  const blocks = function* () {
    for (let sent = 0; sent < inflated; sent += block.length) yield block;
  };
  return png([
    ihdr({ width: 16, height: 16 }),
    chunk("IDAT", await deflate(blocks())),
    chunk("IEND"),
  ]);
}

/** The sample JPEG with its frame header saying `width` × `height`. */
export function jpegOfSize(width: number, height: number): Uint8Array {
  const bytes = JPEG_LOGO.bytes.slice();
  const view = new DataView(bytes.buffer);
  for (let at = 2; at < bytes.length; at += 2 + view.getUint16(at + 2)) {
    if (bytes[at + 1] === 0xc0) {
      view.setUint16(at + 5, height);
      view.setUint16(at + 7, width);
      return bytes;
    }
  }
  throw new Error("the sample JPEG has no baseline frame header");
}
