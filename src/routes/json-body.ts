// Reading JSON request bodies without ever turning bad input into a 5xx.
import { invalidRequest } from "../app/errors";

/** The parsed JSON body; `undefined` for an empty body when allowed; 400 for anything unreadable. */
export async function readJsonBody(
  request: Request,
  options: { allowEmpty?: boolean; maxBytes?: number } = {},
): Promise<unknown> {
  const text = await request.text();
  if (text.length > (options.maxBytes ?? 1024 * 1024)) {
    throw invalidRequest(["The request body is too large."]);
  }
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
