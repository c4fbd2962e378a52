// Reading a dashboard form post: URL-encoded and small, or multipart when it uploads a file (a
// logo), bounded; read once per request.
import type { Context } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { readBoundedBody } from "../app/read-body";

/** The dashboard's forms hold a few short fields, */
const MAX_FORM_BYTES = 16 * 1024;
/** and at most one file of a few hundred KiB (a logo). */
const MAX_UPLOAD_FORM_BYTES = 512 * 1024;

interface Form {
  fields: URLSearchParams;
  files: Map<string, File>;
}

const forms = new WeakMap<Request, Promise<Form>>();

async function parse(request: Request): Promise<Form> {
  const contentType = request.headers.get("content-type") ?? "";
  const type = contentType.split(";")[0]?.trim().toLowerCase();
  const multipart = type === "multipart/form-data";
  if (type !== "application/x-www-form-urlencoded" && !multipart) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE_ERROR", "Send the form as a web page does.");
  }
  const bytes = await readBoundedBody(
    request,
    multipart ? MAX_UPLOAD_FORM_BYTES : MAX_FORM_BYTES,
    () => new ApiError("PAYLOAD_TOO_LARGE_ERROR", "The form is too large."),
  );
  const files = new Map<string, File>();
  if (!multipart) {
    return { fields: new URLSearchParams(new TextDecoder().decode(bytes)), files };
  }
  let data: FormData;
  try {
    data = await new Response(bytes, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new ApiError("BAD_REQUEST_ERROR", "The form could not be read.");
  }
  const fields = new URLSearchParams();
  for (const [name, value] of data) {
    if (typeof value === "string") fields.append(name, value);
    else files.set(name, value);
  }
  return { fields, files };
}

function formOf(c: Context<AppEnv>): Promise<Form> {
  let form = forms.get(c.req.raw);
  if (!form) {
    form = parse(c.req.raw);
    forms.set(c.req.raw, form);
  }
  return form;
}

/** The request's form fields (read once, then shared by the CSRF check and the handler). */
export async function readForm(c: Context<AppEnv>): Promise<URLSearchParams> {
  return (await formOf(c)).fields;
}

/** A file the form uploads, or null when none was chosen. */
export async function formFile(c: Context<AppEnv>, name: string): Promise<File | null> {
  const file = (await formOf(c)).files.get(name);
  return file && file.size > 0 ? file : null;
}

/** One field's trimmed value ("" when absent). */
export async function field(c: Context<AppEnv>, name: string): Promise<string> {
  return ((await readForm(c)).get(name) ?? "").trim();
}
