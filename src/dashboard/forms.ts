// Reading a dashboard form post: URL-encoded, small, read once per request.
import type { Context } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { readBoundedBody } from "../app/read-body";

/** The dashboard's forms hold a few short fields. */
const MAX_FORM_BYTES = 16 * 1024;

const forms = new WeakMap<Request, Promise<URLSearchParams>>();

async function parse(request: Request): Promise<URLSearchParams> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE_ERROR", "Send the form as a web page does.");
  }
  const bytes = await readBoundedBody(
    request,
    MAX_FORM_BYTES,
    () => new ApiError("PAYLOAD_TOO_LARGE_ERROR", "The form is too large."),
  );
  return new URLSearchParams(new TextDecoder().decode(bytes));
}

/** The request's form fields (read once, then shared by the CSRF check and the handler). */
export function readForm(c: Context<AppEnv>): Promise<URLSearchParams> {
  let form = forms.get(c.req.raw);
  if (!form) {
    form = parse(c.req.raw);
    forms.set(c.req.raw, form);
  }
  return form;
}

/** One field's trimmed value ("" when absent). */
export async function field(c: Context<AppEnv>, name: string): Promise<string> {
  return ((await readForm(c)).get(name) ?? "").trim();
}
