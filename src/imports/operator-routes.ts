// POST /operator/v1/import: partners, customers, accounts and statements loaded in one atomic
// request. The body is read and validated here, placed on the one shard its partners live on (or
// new ones go to), reviewed there, then applied in one batch; the events' deliveries and the
// statements' renders are queued after it.
import { type Context, Hono } from "hono";
import { operatorActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { ApiError, invalidRequest, partnerMoving } from "../app/errors";
import { payloadTooLarge } from "../app/operator-requests";
import { usePartnerDatabase } from "../app/partner-database";
import { readJsonBody } from "../app/read-body";
import { defaultShard, placePartners } from "../db/directory";
import { enqueueRenders } from "../documents";
import { parseImportPayload } from "../domain/import-payload";
import { cardVaultOf } from "../payment-methods";
import { enqueueDeliveries } from "../webhook-deliveries";
import { applyImport, type ReviewedImport, reviewImport } from "./import";
import { placeImport } from "./import-placement";

/** Largest accepted import body. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

/** 409 naming every conflict of an import. */
function conflict(problems: string[]): ApiError {
  const [first = "the import was refused", ...rest] = problems;
  return new ApiError("CONFLICT_ERROR", first, { details: [first, ...rest] });
}

/**
 * The import's body, read, validated, placed on its shard (which becomes the request's database)
 * and reviewed there: its writes, or the ApiError it is refused with. The payload lives only
 * here: once this returns, nothing holds it but the writes' JSON chunks, so that a large import
 * holds one copy of its rows while its batch runs.
 */
async function placedAndReviewed(
  c: Context<AppEnv>,
): Promise<{ shard: string; newPartners: string[]; now: Date; reviewed: ReviewedImport }> {
  const body = await readJsonBody(c.req.raw, {
    maxBytes: MAX_IMPORT_BYTES,
    tooLarge: () => payloadTooLarge("An import body", MAX_IMPORT_BYTES),
  });
  const parsed = parseImportPayload(body, c.get("bundle").isSupported);
  if (!parsed.ok) throw invalidRequest(parsed.details);
  const shards = c.get("shards");
  const now = c.get("now")();
  // The one shard the import's partners live on (or new ones go to): its batch runs there.
  const placement = await placeImport(shards, parsed.payload, (jurisdiction) => {
    const open = shards.codes.filter((code) => shards.jurisdiction(code) === jurisdiction);
    return open.length === 0 ? Promise.resolve(null) : defaultShard(shards.directory(), open);
  });
  if (placement.kind === "invalid") throw invalidRequest(placement.problems);
  if (placement.kind === "conflict") throw conflict(placement.problems);
  if (placement.kind === "moving") throw partnerMoving();
  const { shard, newPartners } = placement;
  usePartnerDatabase(c, shards.mustOpen(shard), shard);
  const review = await reviewImport(c.get("db"), parsed.payload, {
    now,
    defaultVersion: c.get("bundle").newestReleased,
    actor: operatorActor(c),
    cardVault: cardVaultOf(c.env),
  });
  if (review.kind !== "reviewed") {
    throw review.kind === "invalid" ? invalidRequest(review.problems) : conflict(review.problems);
  }
  return { shard, newPartners, now, reviewed: review };
}

export const importOperatorRoutes = new Hono<AppEnv>().post("/operator/v1/import", async (c) => {
  const { shard, newPartners, now, reviewed } = await placedAndReviewed(c);
  const shards = c.get("shards");
  const outcome = await applyImport(c.get("db"), reviewed, {
    shard,
    // New partners are in the directory before their first row is on their shard.
    beforeWrite: async () => {
      const places = await placePartners(shards.directory(), newPartners, shard, now);
      const elsewhere = [...places].filter(([, place]) => place.shard !== shard);
      if (elsewhere.length > 0) {
        throw conflict(
          elsewhere.map(
            ([partnerId, place]) =>
              `partners: ${JSON.stringify(partnerId)} was placed on shard ${place.shard} by ` +
              "another import meanwhile; send this import again",
          ),
        );
      }
    },
  });
  if (outcome.kind !== "applied") throw conflict(outcome.problems);
  await enqueueDeliveries(c.env.WEBHOOK_DELIVERIES, outcome.deliveries, c.get("requestId"));
  await enqueueRenders(c.env, outcome.renders, c.get("requestId"));
  return c.json({ imported: outcome.counts });
});
