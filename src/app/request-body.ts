// A request body as handlers read it: parsed, brought forward from the request's version to the
// canonical shape by the version bundle, then validated by its one schema (the reference's).
import type { Context } from "hono";
import * as z from "zod";
import type { BodyOf, RequestRef } from "../canonical/schemas";
import { isJsonObject, type JsonValue, UnknownRequestField } from "../versioning";
import type { AppEnv } from "./context";
import { invalidRequest } from "./errors";
import { readJsonBody } from "./read-body";

const shown = (name: string) => JSON.stringify(name.slice(0, 64));

/** One line per problem, each naming its field. */
function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => `${shown(key)} is not a field of this request`).join("; ");
  }
  if (issue.code === "invalid_type" && issue.input === undefined) return `${where} is required`;
  // Custom rules (the domain's) already name their field.
  if (issue.code === "custom") return issue.message;
  return `${where || "body"}: ${issue.message}`;
}

function paramOf(issue: z.core.$ZodIssue | undefined): string | undefined {
  if (!issue) return undefined;
  if (issue.code === "unrecognized_keys") return issue.keys[0]?.slice(0, 64);
  return issue.path.length > 0 ? issue.path.map(String).join(".") : undefined;
}

export interface ReadRequestOptions {
  /** An empty body reads as `{}`. */
  allowEmpty?: boolean;
  /** A route's own refusal of the canonical body, before its schema checks it. */
  refuse?: (body: Record<string, unknown>) => void;
}

/** The canonical body of request `request`, or a 400 naming every problem. */
export async function readRequest<Ref extends RequestRef>(
  c: Context<AppEnv>,
  request: Ref,
  options: ReadRequestOptions = {},
): Promise<BodyOf<Ref>> {
  const sent = await readJsonBody(c.req.raw, { allowEmpty: options.allowEmpty === true });
  const body = sent === undefined ? {} : sent;
  if (!isJsonObject(body)) throw invalidRequest(["The body must be a JSON object."]);
  let canonical: JsonValue;
  try {
    canonical = c.get("bundle").upgradeRequest(c.get("version"), request.name, body);
  } catch (err) {
    if (err instanceof UnknownRequestField) {
      throw invalidRequest([`${shown(err.field)} is not a field of this request`], err.field);
    }
    throw err;
  }
  if (isJsonObject(canonical)) options.refuse?.(canonical);
  return parseRequest(request, canonical);
}

/**
 * A canonical body checked by the schema of `request`, or a 400 naming every problem: what a
 * dashboard form doing the same as a request validates its fields with.
 */
export function parseRequest<Ref extends RequestRef>(
  request: Ref,
  canonical: unknown,
): BodyOf<Ref> {
  // Typed by the request's own schema (a method call would see only the constraint's ZodType).
  const parsed = z.safeParse<Ref["schema"]>(request.schema, canonical);
  if (!parsed.success) {
    const { issues } = parsed.error;
    throw invalidRequest(issues.map(describeIssue), paramOf(issues[0]));
  }
  return parsed.data;
}
