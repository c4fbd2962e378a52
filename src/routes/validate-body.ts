// Request bodies checked against their zod schema: each problem becomes one `details` entry.
import type * as z from "zod";
import { invalidRequest } from "../app/errors";

/** The parsed body, or a 400 naming each field at fault. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map(
    (issue) => `${issue.path.map(String).join(".") || "body"}: ${issue.message}`,
  );
  const param = parsed.error.issues[0]?.path[0];
  throw invalidRequest(details, typeof param === "string" ? param : undefined);
}
