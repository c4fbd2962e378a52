// What the operator routes share: the partner they name must exist (its shard becomes the
// request's database), a write waits while a move freezes the partner, and a body zod refuses is
// answered with one problem per field, each naming the field as the request wrote it.
import type { Context } from "hono";
import type * as z from "zod";
import { locatePartner } from "../db/directory";
import { findProduct, findStatement } from "../db/find-by-id";
import { partnerName } from "../db/partners";
import type { PartnerDatabase } from "../db/shards";
import { describeItemPath } from "../domain/statement-item";
import { describeProblem, relevantIssues } from "../domain/validation-messages";
import type { AppEnv } from "./context";
import { ApiError, invalidRequest, partnerMoving } from "./errors";
import { usePartnerDatabase } from "./partner-database";

/** `?environment=` when given: sandbox or production (400 naming it otherwise). */
export function environmentFilter(value: string | undefined): "sandbox" | "production" | null {
  if (value === undefined) return null;
  if (value === "sandbox" || value === "production") return value;
  throw invalidRequest(['environment must be "sandbox" or "production"'], "environment");
}

/** A 413 naming the limit `what` exceeded (`An import body is at most … bytes.`). */
export function payloadTooLarge(what: string, limit: number): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE_ERROR", `${what} is at most ${limit} bytes.`);
}

export function partnerNotFound(partnerId: string): ApiError {
  return new ApiError("NOT_FOUND_ERROR", `No such partner: ${JSON.stringify(partnerId)}`);
}

/**
 * Makes `found` the request's database; a `write` while a move freezes the partner answers 503
 * with Retry-After (nothing written).
 */
export function usePartner(
  c: Context<AppEnv>,
  found: PartnerDatabase,
  access: "read" | "write",
): void {
  if (access === "write" && found.moving) throw partnerMoving();
  usePartnerDatabase(c, found.db, found.shard);
}

/**
 * The statement's shard as the request's database, for a write: 404 when no shard holds it, 503
 * while its partner is being moved (or a shard cannot be read: it may be there).
 */
export async function requireStatement(c: Context<AppEnv>, statementId: string): Promise<void> {
  const found = await findStatement(c.get("shards"), statementId);
  if (!found) {
    throw new ApiError("NOT_FOUND_ERROR", `No such statement: ${JSON.stringify(statementId)}`);
  }
  usePartner(c, found, "write");
}

/** The product's shard as the request's database, for a write; false when no shard holds it. */
export async function useProductShard(c: Context<AppEnv>, merchantKey: string): Promise<boolean> {
  const found = await findProduct(c.get("shards"), merchantKey);
  if (!found) return false;
  usePartner(c, found, "write");
  return true;
}

/**
 * The partner's shard, where the directory places it, as the request's database: 404 when the
 * directory knows no such partner, 503 for a `write` while a move freezes it. For a route whose
 * own read of the partner answers 404 when the shard does not hold it after all.
 */
export async function usePartnerShard(
  c: Context<AppEnv>,
  partnerId: string,
  access: "read" | "write" = "read",
): Promise<void> {
  const found = await locatePartner(c.get("shards"), partnerId);
  if (!found) throw partnerNotFound(partnerId);
  usePartner(c, found, access);
}

/**
 * The partner's name, with its shard opened as the request's database; 404 when there is no such
 * partner, 503 for a `write` while a move freezes it.
 */
export async function requirePartner(
  c: Context<AppEnv>,
  partnerId: string,
  access: "read" | "write" = "read",
): Promise<string> {
  await usePartnerShard(c, partnerId, access);
  const name = await partnerName(c.get("db"), partnerId);
  if (name === null) throw partnerNotFound(partnerId);
  return name;
}

/**
 * `scopes[1]: must be one of…`: each problem names its field, written as the import writes it
 * (an item of a list named by its id too: `rewards_categories[2] ("dining").earn_rate`).
 */
export function validationError(error: z.ZodError, input: unknown): ApiError {
  return invalidRequest(
    relevantIssues(error.issues).map((issue) => {
      const where = describeItemPath(input, issue.path).replace(/^\./, "");
      return `${where || "body"}: ${describeProblem(input, issue)}`;
    }),
  );
}
