// /operator/v1/*: the internal API that loads partners, keys, customers, accounts, statements
// and PDFs. Not versioned by date; errors use the ApiError envelope. A call names a partner (its
// shard is found in the directory) or an id alone (every shard is asked for it).
import { and, eq, isNull, sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import * as z from "zod";
import { operatorActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import {
  ApiError,
  invalidRequest,
  liveKeyLimitReached,
  partnerMoving,
  routeNotFound,
} from "../app/errors";
import {
  partnerNotFound,
  requirePartner,
  requireStatement,
  usePartner,
  validationError,
} from "../app/operator-requests";
import { usePartnerDatabase } from "../app/partner-database";
import { limitPerClientIp } from "../app/rate-limit";
import { RATE_LIMITS } from "../app/rate-policies";
import { readBoundedBody, readJsonBody } from "../app/read-body";
import { atomically, type Query } from "../db/batch";
import { defaultShard, placePartners } from "../db/directory";
import { findKey } from "../db/find-by-id";
import { deadLetterOperatorRoutes } from "../dead-letters";
import { documentOperatorRoutes, enqueueRenders, storeStatementDocument } from "../documents";
import { parseImportPayload } from "../domain/import-payload";
import { SCOPES } from "../domain/scopes";
import { applyImport, placeImport, type ReviewedImport, reviewImport } from "../imports";
import { createApiKey, keyOwner, revokeApiKey } from "../keys";
import { operatorMoveRoutes } from "../partner-moves";
import { cardVaultOf } from "../payment-methods";
import { operatorRestatementRoutes } from "../restatements";
import { changeSavedVersion, readSavedVersion } from "../saved-versions";
import { statements } from "../statements/schema";
import {
  deliveriesOf,
  type EventWrites,
  enqueueDeliveries,
  statementEventWrites,
} from "../webhooks";
import { operatorAuth } from "./auth";
import { operatorPartnerRoutes } from "./partners";
import { operatorVersionRoutes } from "./versions";

/** Largest accepted statement PDF. */
const MAX_PDF_BYTES = 20 * 1024 * 1024;

/** Largest accepted import body. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

const Environment = z.enum(["sandbox", "production"]);
const CreateKey = z.strictObject({
  environment: Environment,
  scopes: z.array(z.enum(SCOPES)).max(SCOPES.length),
  name: z.string().min(1).max(255).optional(),
});
const SavedVersion = z.strictObject({ version: z.string() });

/**
 * One atomic batch: the events (checked against the row before the change), their deliveries,
 * then the change itself; the new deliveries are then enqueued.
 */
async function changeWithEvents(
  c: Context<AppEnv>,
  announced: EventWrites,
  change: Query,
): Promise<void> {
  const db = c.get("db");
  const [, created] = await atomically(db, [announced.events, announced.deliveries, change]);
  const deliveries = deliveriesOf(created ? [created] : [], c.get("shard"));
  await enqueueDeliveries(c.env.WEBHOOK_DELIVERIES, deliveries, c.get("requestId"));
}

/** 409 naming every conflict of an import. */
function conflict(problems: string[]): ApiError {
  const [first = "the import was refused", ...rest] = problems;
  return new ApiError("CONFLICT_ERROR", first, { details: [first, ...rest] });
}

/** A 413 naming the limit that `what` exceeded. */
function tooLarge(what: string, limit: number): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE_ERROR", `${what} is at most ${limit} bytes.`);
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
    tooLarge: () => tooLarge("An import body", MAX_IMPORT_BYTES),
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

export const operatorRoutes = new Hono<AppEnv>()
  .use("/operator/*", limitPerClientIp(RATE_LIMITS.operator), operatorAuth)

  .post("/operator/v1/import", async (c) => {
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
  })

  .post("/operator/v1/partners/:partner_id/keys", async (c) => {
    const partnerId = c.req.param("partner_id");
    const body = await readJsonBody(c.req.raw);
    const parsed = CreateKey.safeParse(body);
    if (!parsed.success) throw validationError(parsed.error, body);
    await requirePartner(c, partnerId, "write");
    const { outcome, created } = await createApiKey(c.get("db"), {
      partnerId,
      shard: c.get("shard"),
      environment: parsed.data.environment,
      scopes: [...new Set(parsed.data.scopes)],
      name: parsed.data.name ?? null,
      actor: operatorActor(c),
      now: c.get("now")(),
    });
    if (outcome !== "created") throw liveKeyLimitReached();
    return c.json(created, 201);
  })

  // Revokes the key and, by default, every key minted from it (`?cascade=false`: that key only).
  .delete("/operator/v1/keys/:key_id", async (c) => {
    const keyId = c.req.param("key_id");
    const cascade = c.req.query("cascade") ?? "true";
    if (cascade !== "true" && cascade !== "false") {
      throw invalidRequest(['cascade must be "true" or "false"'], "cascade");
    }
    const found = await findKey(c.get("shards"), keyId);
    if (!found) throw new ApiError("NOT_FOUND_ERROR", `No such key: ${JSON.stringify(keyId)}`);
    usePartner(c, found, "write");
    const owner = await keyOwner(c.get("db"), keyId);
    if (!owner) throw new ApiError("NOT_FOUND_ERROR", `No such key: ${JSON.stringify(keyId)}`);
    await revokeApiKey(c.get("db"), {
      ...owner,
      keyId,
      cascade: cascade === "true",
      actor: operatorActor(c),
      now: c.get("now")(),
    });
    return c.body(null, 204);
  })

  .put("/operator/v1/partners/:partner_id/saved-versions/:environment", async (c) => {
    const partnerId = c.req.param("partner_id");
    const environment = Environment.safeParse(c.req.param("environment"));
    if (!environment.success) {
      throw invalidRequest(['environment must be "sandbox" or "production"']);
    }
    const body = await readJsonBody(c.req.raw);
    const parsed = SavedVersion.safeParse(body);
    if (!parsed.success) throw validationError(parsed.error, body);
    const { version } = parsed.data;
    await requirePartner(c, partnerId, "write");
    const bundle = c.get("bundle");
    if (!bundle.isSupported(version, environment.data)) {
      throw invalidRequest([
        `version ${JSON.stringify(version.slice(0, 64))} is not offered in ${environment.data}; ` +
          `supported: ${bundle.supported(environment.data).join(", ")}`,
      ]);
    }
    const state = await readSavedVersion(c.get("db"), partnerId, environment.data, 0);
    if (!state) throw partnerNotFound(partnerId);
    if (state.saved !== version) {
      const changed = await changeSavedVersion(c.get("db"), {
        partnerId,
        environment: environment.data,
        from: state.saved,
        to: version,
        rollbackOf: null,
        actor: operatorActor(c),
        now: c.get("now")(),
      });
      if (!changed) {
        throw new ApiError("CONFLICT_ERROR", "The saved version changed meanwhile; retry.");
      }
    }
    return c.json({ partner_id: partnerId, environment: environment.data, version });
  })

  .put("/operator/v1/statements/:statement_id/pdf", async (c) => {
    const statementId = c.req.param("statement_id");
    const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (type !== "application/pdf") {
      throw new ApiError(
        "UNSUPPORTED_MEDIA_TYPE_ERROR",
        "Send the PDF with Content-Type: application/pdf.",
      );
    }
    const bytes = await readBoundedBody(c.req.raw, MAX_PDF_BYTES, () =>
      tooLarge("A statement PDF", MAX_PDF_BYTES),
    );
    if (new TextDecoder().decode(bytes.subarray(0, 5)) !== "%PDF-") {
      throw invalidRequest(["The body is not a PDF document (it must start with %PDF-)."]);
    }
    await requireStatement(c, statementId);
    await storeStatementDocument(
      {
        db: c.get("db"),
        shard: c.get("shard"),
        documents: c.get("documents"),
        webhooks: c.env.WEBHOOK_DELIVERIES,
        requestId: c.get("requestId"),
        now: c.get("now")(),
      },
      statementId,
      bytes,
      { kind: "upload" },
    );
    return c.body(null, 204);
  })

  .post("/operator/v1/statements/:statement_id/hide", async (c) => {
    const statementId = c.req.param("statement_id");
    await requireStatement(c, statementId);
    const [row] = await c
      .get("db")
      .select({ hiddenAt: statements.hiddenAt })
      .from(statements)
      .where(eq(statements.statementId, statementId));
    if (!row)
      throw new ApiError("NOT_FOUND_ERROR", `No such statement: ${JSON.stringify(statementId)}`);
    if (row.hiddenAt === null) {
      const db = c.get("db");
      const now = c.get("now")().toISOString();
      const announced = statementEventWrites(
        "statement.hidden",
        JSON.stringify([[statementId]]),
        now,
        sql`s.hidden_at IS NULL`,
      );
      const update = db
        .update(statements)
        .set({ hiddenAt: now })
        .where(and(eq(statements.statementId, statementId), isNull(statements.hiddenAt)));
      await changeWithEvents(c, announced, update);
    }
    return c.body(null, 204);
  })

  .route("/", operatorRestatementRoutes)
  .route("/", operatorPartnerRoutes)
  .route("/", operatorMoveRoutes)
  .route("/", operatorVersionRoutes)
  .route("/", documentOperatorRoutes)
  .route("/", deadLetterOperatorRoutes)

  .all("/operator/*", (c) => {
    throw routeNotFound(c.req.method, c.req.path);
  });
