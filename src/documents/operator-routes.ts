// The operator's side of statement documents: a statement's PDF uploaded
// (PUT /operator/v1/statements/{statement_id}/pdf), how each product gets its documents and how
// they look (/operator/v1/partners/{partner_id}/products and
// PATCH /operator/v1/products/{merchant_key}), the renders of a partner's statements, failed ones
// included (…/statement-renders), and a render asked for again
// (POST /operator/v1/statements/{statement_id}/render).
import { Hono } from "hono";
import { operatorActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { ApiError, invalidRequest } from "../app/errors";
import {
  environmentFilter,
  payloadTooLarge,
  requirePartner,
  requireStatement,
  useProductShard,
  validationError,
} from "../app/operator-requests";
import { idPageQuery } from "../app/query";
import { readBoundedBody, readJsonBody } from "../app/read-body";
import { storeStatementDocument } from "./attach";
import { ProductChangeSchema, productJson } from "./presentation";
import { changeProblem, changeProduct, readProduct, readProductSettings } from "./product-store";
import { enqueueRenders } from "./render-queue";
import { RENDER_STATUSES, type RenderRow, readRenderPage, requestRender } from "./render-store";

/** Largest accepted statement PDF. */
const MAX_PDF_BYTES = 20 * 1024 * 1024;

/** A logo (base64, within its limit) and a few short fields. */
const MAX_PRODUCT_CHANGE_BYTES = 512 * 1024;

function renderJson(row: RenderRow) {
  return {
    statement_id: row.statementId,
    environment: row.environment,
    status: row.status,
    attempts: row.attempts,
    requested_at: row.requestedAt,
    next_attempt_at: row.status === "pending" ? row.nextAttemptAt : null,
    completed_at: row.completedAt,
    error: row.error,
  };
}

function productNotFound(merchantKey: string): ApiError {
  return new ApiError("NOT_FOUND_ERROR", `No such product: ${JSON.stringify(merchantKey)}`);
}

export const documentOperatorRoutes = new Hono<AppEnv>()
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
      payloadTooLarge("A statement PDF", MAX_PDF_BYTES),
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

  .get("/operator/v1/partners/:partner_id/products", async (c) => {
    const partnerId = c.req.param("partner_id");
    await requirePartner(c, partnerId);
    const rows = await readProductSettings(c.get("db"), partnerId);
    return c.json({ data: rows.map(productJson) });
  })

  // Each field sent changes; null puts back the default. A logo is sent as base64.
  .patch("/operator/v1/products/:merchant_key", async (c) => {
    const merchantKey = c.req.param("merchant_key");
    const body = await readJsonBody(c.req.raw, { maxBytes: MAX_PRODUCT_CHANGE_BYTES });
    const parsed = await ProductChangeSchema.safeParseAsync(body);
    if (!parsed.success) throw validationError(parsed.error, body);
    if (!(await useProductShard(c, merchantKey))) throw productNotFound(merchantKey);
    const db = c.get("db");
    const product = await readProduct(db, merchantKey);
    if (!product) throw productNotFound(merchantKey);
    const problem = changeProblem(product, parsed.data);
    if (problem) throw invalidRequest([problem], "logo_alt_text");
    const deps = { db, documents: c.get("documents") };
    const changed = await changeProduct(
      deps,
      product,
      parsed.data,
      operatorActor(c),
      c.get("now")(),
    );
    if (!changed) throw productNotFound(merchantKey);
    return c.json(productJson(changed));
  })

  // The partner's renders in one status (failed by default), in statement id order.
  .get("/operator/v1/partners/:partner_id/statement-renders", async (c) => {
    const partnerId = c.req.param("partner_id");
    const { limit, after } = idPageQuery.parse((name) => c.req.queries(name));
    const asked = c.req.query("status") ?? "failed";
    const status = RENDER_STATUSES.find((name) => name === asked);
    if (status === undefined) {
      throw invalidRequest([`status must be one of ${RENDER_STATUSES.join(", ")}`], "status");
    }
    const environment = environmentFilter(c.req.query("environment"));
    await requirePartner(c, partnerId);
    const rows = await readRenderPage(
      c.get("db"),
      { partnerId, status, environment },
      after,
      limit,
    );
    return c.json({ data: rows.slice(0, limit).map(renderJson), has_more: rows.length > limit });
  })

  // Renders the statement again, whatever became of earlier renders; 202: it is queued.
  .post("/operator/v1/statements/:statement_id/render", async (c) => {
    const statementId = c.req.param("statement_id");
    await requireStatement(c, statementId);
    const asked = await requestRender(c.get("db"), statementId, c.get("now")());
    if (!asked) {
      throw new ApiError("NOT_FOUND_ERROR", `No such statement: ${JSON.stringify(statementId)}`);
    }
    const ref = { ...asked, shard: c.get("shard") };
    await enqueueRenders(c.env, [ref], c.get("requestId"));
    return c.json(
      { statement_id: ref.statement_id, status: "pending", generation: ref.generation },
      202,
    );
  });
