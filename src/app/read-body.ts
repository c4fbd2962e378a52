// Reading request bodies without ever turning bad input into a 5xx, nor holding more than a limit.
import type { JsonValue } from "../versioning";
import { type ApiError, invalidRequest } from "./errors";

/** Partner request bodies are small JSON objects. */
const DEFAULT_MAX_BYTES = 1024 * 1024;

/**
 * Hands each chunk of the body to `take`, or throws `tooLarge()` once the body passes `limit`: a
 * declared Content-Length is refused before reading, and a body without one is cut off as soon as
 * it grows past the limit.
 */
async function readBounded(
  request: Body & { headers: Headers },
  limit: number,
  tooLarge: () => ApiError,
  take: (chunk: Uint8Array) => void,
): Promise<void> {
  if (Number(request.headers.get("content-length") ?? 0) > limit) throw tooLarge();
  if (!request.body) return;
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    take(value);
  }
}

/** The body's bytes (of a request or a response), or `tooLarge()` once it passes `limit`. */
export async function readBoundedBody(
  request: Body & { headers: Headers },
  limit: number,
  tooLarge: () => ApiError,
): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  await readBounded(request, limit, tooLarge, (part) => {
    parts.push(part);
    size += part.byteLength;
  });
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/** The parsed JSON body; `undefined` for an empty body when allowed; 400 for anything unreadable. */
export async function readJsonBody(
  request: Request,
  options: { allowEmpty?: boolean; maxBytes?: number; tooLarge?: () => ApiError } = {},
): Promise<JsonValue | undefined> {
  const tooLarge = options.tooLarge ?? (() => invalidRequest(["The request body is too large."]));
  // Decoded as it arrives, so a large body is never held as bytes and as text at once.
  const decoder = new TextDecoder();
  let text = "";
  await readBounded(request, options.maxBytes ?? DEFAULT_MAX_BYTES, tooLarge, (chunk) => {
    text += decoder.decode(chunk, { stream: true });
  });
  text += decoder.decode();
  if (text.trim() === "") {
    if (options.allowEmpty) return undefined;
    throw invalidRequest(["A JSON request body is required."]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw invalidRequest(["The request body is not valid JSON."]);
  }
}
