// /operator/v1/*: the internal API that loads partners, keys, customers, accounts, statements
// and PDFs. Not versioned by date; errors use the ApiError envelope.
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import * as z from "zod";
import { bundle } from "../../versions";
import type { AppEnv } from "../app/context";
import { ApiError, invalidRequest } from "../app/errors";
import { operatorAuth } from "../app/operator-auth";
import { limitPerClientIp, RATE_LIMITS } from "../app/rate-limit";
import { SCOPES } from "../app/route-table";
import type { Database } from "../db/client";
import { importPayload } from "../db/import";
import { createApiKey } from "../db/keys";
import { apiKeys, partners, statements } from "../db/schema";
import { parseImportPayload } from "../domain/import-payload";
import { describeProblem, relevantIssues } from "../domain/validation-messages";
import { readBoundedBody, readJsonBody } from "./json-body";

/** Largest accepted statement PDF. */
export const MAX_PDF_BYTES = 20 * 1024 * 1024;

/** Largest accepted import body. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

const Environment = z.enum(["sandbox", "production"]);
const CreateKey = z.strictObject({
  environment: Environment,
  scopes: z.array(z.enum(SCOPES)).max(SCOPES.length),
  name: z.string().min(1).max(255).optional(),
});
const SavedVersion = z.strictObject({ version: z.string() });

/** `scopes[1]: must be one of…`: each problem names its field, written as the import writes it. */
function validationError(error: z.ZodError, input: unknown): ApiError {
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

async function partnerExists(db: Database, partnerId: string): Promise<void> {
  const [row] = await db
    .select({ id: partners.partnerId })
    .from(partners)
    .where(eq(partners.partnerId, partnerId));
  if (!row) throw new ApiError("NOT_FOUND_ERROR", `No such partner: ${JSON.stringify(partnerId)}`);
}

/**
 * The R2 object key of a statement's PDF: named by its content, so an upload never overwrites the
 * bytes a stored row points to. The row moves to the new object only once it is fully stored:
 * an upload that fails at any step leaves the statement as it was.
 */
async function pdfObjectKey(statementId: string, bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  return `statements/${encodeURIComponent(statementId)}/${hex}.pdf`;
}

/** A 413 naming the limit that `what` exceeded. */
function tooLarge(what: string, limit: number): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE_ERROR", `${what} is at most ${limit} bytes.`);
}

export const operatorRoutes = new Hono<AppEnv>()
  .use("/operator/*", limitPerClientIp(RATE_LIMITS.operator), operatorAuth)

  .post("/operator/v1/import", async (c) => {
    const body = await readJsonBody(c.req.raw, {
      maxBytes: MAX_IMPORT_BYTES,
      tooLarge: () => tooLarge("An import body", MAX_IMPORT_BYTES),
    });
    const parsed = parseImportPayload(body);
    if (!parsed.ok) throw invalidRequest(parsed.details);
    const imported = await importPayload(c.get("db"), parsed.payload, c.get("now")());
    return c.json({ imported });
  })

  .post("/operator/v1/partners/:partner_id/keys", async (c) => {
    const partnerId = c.req.param("partner_id");
    const body = await readJsonBody(c.req.raw);
    const parsed = CreateKey.safeParse(body);
    if (!parsed.success) throw validationError(parsed.error, body);
    await partnerExists(c.get("db"), partnerId);
    const created = await createApiKey(c.get("db"), {
      partnerId,
      environment: parsed.data.environment,
      scopes: [...new Set(parsed.data.scopes)],
      name: parsed.data.name ?? null,
      now: c.get("now")(),
    });
    return c.json(created, 201);
  })

  .delete("/operator/v1/keys/:key_id", async (c) => {
    const keyId = c.req.param("key_id");
    const [row] = await c
      .get("db")
      .select({ revokedAt: apiKeys.revokedAt })
      .from(apiKeys)
      .where(eq(apiKeys.keyId, keyId));
    if (!row) throw new ApiError("NOT_FOUND_ERROR", `No such key: ${JSON.stringify(keyId)}`);
    if (row.revokedAt === null) {
      await c
        .get("db")
        .update(apiKeys)
        .set({ revokedAt: c.get("now")().toISOString() })
        .where(eq(apiKeys.keyId, keyId));
    }
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
    if (!bundle.isSupported(version, environment.data)) {
      throw invalidRequest([
        `version ${JSON.stringify(version.slice(0, 64))} is not offered in ${environment.data}; ` +
          `supported: ${bundle.supported(environment.data).join(", ")}`,
      ]);
    }
    await partnerExists(c.get("db"), partnerId);
    await c
      .get("db")
      .update(partners)
      .set(
        environment.data === "sandbox"
          ? { savedVersionSandbox: version }
          : { savedVersionProduction: version },
      )
      .where(eq(partners.partnerId, partnerId));
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
    const [row] = await c
      .get("db")
      .select({ id: statements.statementId })
      .from(statements)
      .where(eq(statements.statementId, statementId));
    if (!row)
      throw new ApiError("NOT_FOUND_ERROR", `No such statement: ${JSON.stringify(statementId)}`);
    const key = await pdfObjectKey(statementId, bytes);
    await c.get("documents").put(key, bytes, "application/pdf");
    await c
      .get("db")
      .update(statements)
      .set({ pdfKey: key })
      .where(eq(statements.statementId, statementId));
    return c.body(null, 204);
  })

  .post("/operator/v1/statements/:statement_id/hide", async (c) => {
    const statementId = c.req.param("statement_id");
    const [row] = await c
      .get("db")
      .select({ hiddenAt: statements.hiddenAt })
      .from(statements)
      .where(eq(statements.statementId, statementId));
    if (!row)
      throw new ApiError("NOT_FOUND_ERROR", `No such statement: ${JSON.stringify(statementId)}`);
    if (row.hiddenAt === null) {
      await c
        .get("db")
        .update(statements)
        .set({ hiddenAt: c.get("now")().toISOString() })
        .where(eq(statements.statementId, statementId));
    }
    return c.body(null, 204);
  })

  .all("/operator/*", (c) => {
    throw new ApiError("NOT_FOUND_ERROR", `No route ${c.req.method} ${c.req.path}.`);
  });
