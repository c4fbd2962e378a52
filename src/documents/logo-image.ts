// A logo is accepted only as one well-formed image whose decoding is bounded before anything
// decodes it: the renderer inflates a PNG's image data into pixels, and a PDF viewer decodes a
// JPEG as it is embedded. A PNG must be what the PNG specification describes — the signature,
// IHDR first and once, every chunk inside the file with a valid CRC, PLTE and tRNS before the
// image data, the image data in consecutive IDAT chunks, IEND last — and its image data must
// inflate to exactly the bytes its header's size implies: the inflation is counted as it streams
// and stopped at the first byte past that, so data that would inflate to gigabytes costs at most
// that size. A JPEG must be one baseline, extended or progressive frame (what PDF's DCTDecode
// draws) of 8-bit samples in 1, 3 or 4 components, its segments inside the file, ending with its
// end-of-image marker. Pure: bytes in, the first problem found out.

export type ImageMediaType = "image/png" | "image/jpeg";

/** Why `bytes` are not one well-formed image of `mediaType` at most `maxPixels` a side, or null. */
export async function imageProblem(
  bytes: Uint8Array,
  mediaType: ImageMediaType,
  maxPixels: number,
): Promise<string | null> {
  const png = mediaType === "image/png";
  const bad = (why: string) => `logo is not a well-formed ${png ? "PNG" : "JPEG"}: ${why}`;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return png ? pngProblem(bytes, view, maxPixels, bad) : jpegProblem(bytes, view, maxPixels, bad);
}

type Bad = (why: string) => string;

function sizeProblem(width: number, height: number, maxPixels: number): string | null {
  const got = `got ${width} × ${height}`;
  if (width < 1 || height < 1) return `logo must be at least 1 × 1 pixel; ${got}`;
  if (width > maxPixels || height > maxPixels) {
    return `logo must be at most ${maxPixels} × ${maxPixels} pixels; ${got}`;
  }
  return null;
}

// ---- PNG --------------------------------------------------------------------------------------

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** By colour type: the samples of a pixel, and the bit depths allowed. */
const COLOUR_TYPES: Record<number, [number, number[]]> = {
  0: [1, [1, 2, 4, 8, 16]], // greyscale
  2: [3, [8, 16]], // truecolour
  3: [1, [1, 2, 4, 8]], // palette indices
  4: [2, [8, 16]], // greyscale and alpha
  6: [4, [8, 16]], // truecolour and alpha
};

/** Adam7: each pass's first column and row, and its steps across and down. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

let crcTable: Uint32Array | undefined;

/** CRC-32 of `bytes`, as PNG computes it over a chunk's type and data. */
function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c;
    }
  }
  let c = ~0;
  for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return ~c >>> 0;
}

interface PngHeader {
  width: number;
  height: number;
  /** Bits per pixel. */
  bits: number;
  colourType: number;
  interlaced: boolean;
}

async function pngProblem(
  bytes: Uint8Array,
  view: DataView,
  maxPixels: number,
  bad: Bad,
): Promise<string | null> {
  if (PNG_SIGNATURE.some((byte, i) => bytes[i] !== byte)) return bad("no PNG signature");
  let header: PngHeader | undefined;
  let palette = 0;
  let transparency = false;
  const data: Uint8Array[] = [];
  let dataEnded = false;
  for (let at = 8; ; ) {
    if (at + 12 > bytes.length) return bad(`a chunk is cut short at byte ${at} (no IEND chunk)`);
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (!/^[A-Za-z]{4}$/.test(type)) return bad(`the chunk at byte ${at} has no valid type`);
    if (length > bytes.length - at - 12) {
      return bad(`the ${type} chunk at byte ${at} runs past the end of the file`);
    }
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== view.getUint32(at + 8 + length)) {
      return bad(`the ${type} chunk at byte ${at} fails its CRC`);
    }
    const bodyAt = at + 8;
    const body = bytes.subarray(bodyAt, bodyAt + length);
    at += 12 + length;
    if (data.length > 0 && type !== "IDAT") dataEnded = true;
    if (type === "IHDR") {
      if (header) return bad("more than one IHDR chunk");
      if (length !== 13) return bad("IHDR must be 13 bytes");
      const [depth = 0, colourType = 0, compression, filter, interlace = 0] = body.subarray(8);
      const width = view.getUint32(bodyAt);
      const height = view.getUint32(bodyAt + 4);
      const size = sizeProblem(width, height, maxPixels);
      if (size) return size;
      const [samples, depths] = COLOUR_TYPES[colourType] ?? [0, []];
      if (!depths.includes(depth)) {
        return bad(`no colour type ${colourType} of bit depth ${depth}`);
      }
      if (compression || filter || interlace > 1) {
        return bad("unknown compression, filter or interlace method");
      }
      const interlaced = interlace === 1;
      header = { width, height, bits: samples * depth, colourType, interlaced };
    } else if (!header) {
      return bad(`the first chunk must be IHDR; got ${type}`);
    } else if (type === "PLTE" || type === "tRNS") {
      if (data.length > 0) return bad(`${type} comes after the image data`);
      const { colourType } = header;
      if (type === "PLTE") {
        if (palette || length % 3 || !length || length > 768 || colourType % 4 === 0) {
          return bad("PLTE is repeated, of the wrong size, or in a greyscale image");
        }
        palette = length / 3;
      } else {
        // Greyscale: one 2-byte sample; truecolour: three; palette: up to one byte per entry.
        const room = [2, 0, 6, palette][colourType] ?? 0;
        if (transparency || !length || length > room || (colourType !== 3 && length !== room)) {
          return bad("tRNS is repeated or does not fit the colour type");
        }
        transparency = true;
      }
    } else if (type === "IDAT") {
      if (dataEnded) return bad("the IDAT chunks are not consecutive");
      data.push(body);
    } else if (type === "IEND") {
      if (length) return bad("IEND must be empty");
      if (at !== bytes.length) return bad(`${bytes.length - at} bytes follow the IEND chunk`);
      break;
    } else if (type.charCodeAt(0) < 0x60) {
      // An ancillary chunk (lower-case first letter) may be skipped; an unknown critical one not.
      return bad(`unknown critical chunk ${type}`);
    }
  }
  if (!data.length) return bad("no IDAT chunk");
  // Unreachable: the loop ends only at IEND, and returns at any chunk before IHDR.
  if (!header) return bad("no IHDR chunk");
  if (header.colourType === 3 && !palette) return bad("a palette image has no PLTE");
  return imageDataProblem(header, data, bad);
}

/**
 * Inflates the image data (the IDAT chunks' one zlib stream), counting bytes and stopping at the
 * first byte past what the header's size holds, and checks each row's filter type on the way.
 * Nothing is kept: memory stays within the stream's chunks.
 */
async function imageDataProblem(h: PngHeader, data: Uint8Array[], bad: Bad) {
  // Each pass's rows, and bytes per row after its filter-type byte (one pass unless interlaced).
  const rows = (h.interlaced ? ADAM7 : [[0, 0, 1, 1]])
    .map(([x0, y0, dx, dy]) => [
      Math.ceil(Math.max(0, h.height - (y0 as number)) / (dy as number)),
      Math.ceil((Math.ceil(Math.max(0, h.width - (x0 as number)) / (dx as number)) * h.bits) / 8),
    ])
    .filter(([count, rowBytes]) => count && rowBytes) as [number, number][];
  const expected = rows.reduce((sum, [count, rowBytes]) => sum + count * (1 + rowBytes), 0);
  // Rows are counted only up to `expected` bytes, which the passes' rows fill exactly.
  const passAt = (p: number) => {
    const found = rows[p];
    if (!found) throw new RangeError(`no pass ${p}`);
    return found;
  };
  const image = `a ${h.width} × ${h.height} image`;
  let total = 0;
  let filterAt = 0;
  let pass = 0;
  let row = 0;
  const reader = new Blob(data)
    .stream()
    .pipeThrough(new DecompressionStream("deflate"))
    .getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const start = total;
      total += value.byteLength;
      if (total > expected) {
        return bad(`its image data inflates to more than the ${expected} bytes of ${image}`);
      }
      for (; filterAt < total; row += 1) {
        if (row === passAt(pass)[0]) [pass, row] = [pass + 1, 0];
        if ((value[filterAt - start] ?? 0) > 4) return bad("a row has no valid filter type");
        filterAt += 1 + passAt(pass)[1];
      }
    }
  } catch {
    return bad("its image data is not a complete zlib stream");
  } finally {
    reader.cancel().catch(() => {});
  }
  return total < expected
    ? bad(`its image data inflates to ${total} bytes; ${image} needs ${expected}`)
    : null;
}

// ---- JPEG -------------------------------------------------------------------------------------

/** Segments that may come before or between scans: DHT, DQT, DRI, COM and APP0–APP15. */
const isTableOrNote = (m: number) =>
  m === 0xc4 || m === 0xdb || m === 0xdd || m === 0xfe || (m >= 0xe0 && m <= 0xef);

function jpegProblem(
  bytes: Uint8Array,
  view: DataView,
  maxPixels: number,
  bad: Bad,
): string | null {
  if (view.byteLength < 2 || view.getUint16(0) !== 0xffd8) return bad("no start-of-image marker");
  const hex = (marker: number) => `0xFF${marker.toString(16).toUpperCase()}`;
  let components: number[] | undefined;
  let scans = 0;
  for (let at = 2; ; ) {
    if (bytes[at] !== 0xff) {
      return bad(at < bytes.length ? `no marker at byte ${at}` : "no end-of-image marker");
    }
    while (bytes[at] === 0xff) at += 1; // fill bytes
    const marker = bytes[at];
    if (marker === undefined) return bad("no end-of-image marker");
    const markerAt = at - 1;
    at += 1;
    if (marker === 0xd9) {
      if (!components || !scans) return bad("no frame, or no scan of image data");
      return at === bytes.length ? null : bad(`${bytes.length - at} bytes follow the end of image`);
    }
    const length = at + 2 <= bytes.length ? view.getUint16(at) : 0;
    if (length < 2 || at + length > bytes.length) {
      return bad(`the ${hex(marker)} segment at byte ${markerAt} runs past the end of the file`);
    }
    const bodyAt = at + 2;
    const body = bytes.subarray(bodyAt, at + length);
    at += length;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8) {
      // A frame: only baseline, extended and progressive DCT with Huffman coding are drawn.
      if (marker > 0xc2) return bad(`frame ${hex(marker)} is not baseline or progressive DCT`);
      if (components) return bad("more than one frame");
      const count = body[5] ?? 0;
      if (body.length !== 6 + 3 * count || ![1, 3, 4].includes(count) || body[0] !== 8) {
        return bad("a frame must have 8-bit samples in 1, 3 or 4 components");
      }
      const size = sizeProblem(view.getUint16(bodyAt + 3), view.getUint16(bodyAt + 1), maxPixels);
      if (size) return size;
      components = [];
      for (let c = 6; c < body.length; c += 3) {
        const [id = 0, sampling = 0] = body.subarray(c, c + 2);
        const [h, v] = [sampling >> 4, sampling & 15];
        if (components.includes(id) || h < 1 || h > 4 || v < 1 || v > 4) {
          return bad("a frame's components repeat an id or have no valid sampling");
        }
        components.push(id);
      }
    } else if (marker === 0xda) {
      const count = body[0] ?? 0;
      const named = Array.from({ length: count }, (_, i) => body[1 + 2 * i]);
      if (
        !components ||
        body.length !== 4 + 2 * count ||
        named.some((id) => id === undefined || !components?.includes(id))
      ) {
        return bad(`the scan at byte ${markerAt} does not fit a frame before it`);
      }
      scans += 1;
      // The entropy-coded data runs to the next marker: not a stuffed 0xFF00, not a restart.
      while (at < bytes.length) {
        const next = bytes[at + 1];
        if (bytes[at] !== 0xff) at += 1;
        else if (next === undefined) break;
        else if (next === 0 || (next >= 0xd0 && next <= 0xd7)) at += 2;
        else if (next === 0xff) at += 1;
        else break;
      }
    } else if (!isTableOrNote(marker)) {
      return bad(`unexpected marker ${hex(marker)} at byte ${markerAt}`);
    }
  }
}
