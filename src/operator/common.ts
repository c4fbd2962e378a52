// What the operator routes share: the partner they name must exist, and a body zod refuses is
// answered with one problem per field, each naming the field as the request wrote it.
import type { Context } from "hono";
import type * as z from "zod";
import type { AppEnv } from "../app/context";
import { ApiError, invalidRequest } from "../app/errors";
import { partnerName } from "../db/partners";
import { describeProblem, relevantIssues } from "../domain/validation-messages";

export function partnerNotFound(partnerId: string): ApiError {
  return new ApiError("NOT_FOUND_ERROR", `No such partner: ${JSON.stringify(partnerId)}`);
}

/** The partner's name; 404 when there is no such partner. */
export async function requirePartner(c: Context<AppEnv>, partnerId: string): Promise<string> {
  const name = await partnerName(c.get("db"), partnerId);
  if (name === null) throw partnerNotFound(partnerId);
  return name;
}

/** `scopes[1]: must be one of…`: each problem names its field, written as the import writes it. */
export function validationError(error: z.ZodError, input: unknown): ApiError {
  return invalidRequest(
    relevantIssues(error.issues).map((issue) => {
      const where = issue.path
        .map((part, i) =>
          typeof part === "number" ? `[${part}]` : `${i ? "." : ""}${String(part)}`,
        )
        .join("");
      return `${where || "body"}: ${describeProblem(input, issue)}`;
    }),
  );
}
