// Reading request bodies without ever turning bad input into a 5xx, nor holding more than a limit.
import { type ApiError, invalidRequest } from "../app/errors";

/** Partner request bodies are small JSON objects. */
const DEFAULT_MAX_BYTES = 1024 * 1024;

const decoder = new TextDecoder();

/**
 * The body's bytes, or `tooLarge()` once it passes `limit`: a declared Content-Length is refused
 * before reading, and a body without one is cut off as soon as it grows past the limit.
 */
export async function readBoundedBody(
  request: Request,
  limit: number,
  tooLarge: () => ApiError,
): Promise<Uint8Array> {
  if (Number(request.headers.get("content-length") ?? 0) > limit) throw tooLarge();
  if (!request.body) return new Uint8Array();
  const parts: Uint8Array[] = [];
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
    parts.push(value);
  }
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
): Promise<unknown> {
  const tooLarge = options.tooLarge ?? (() => invalidRequest(["The request body is too large."]));
  const bytes = await readBoundedBody(request, options.maxBytes ?? DEFAULT_MAX_BYTES, tooLarge);
  const text = decoder.decode(bytes);
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
