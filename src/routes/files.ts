// GET|HEAD /files/statements/{statement_id}/pdf: the signed link target; no API key needed.
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { limitPerClientIp, RATE_LIMITS } from "../app/rate-limit";
import { statements } from "../db/schema";
import { verifyStatementLink } from "../domain/statement-link";

export const fileRoutes = new Hono<AppEnv>()
  .use("/files/*", limitPerClientIp(RATE_LIMITS.pdfLink))
  .on(["GET", "HEAD"], "/files/statements/:statement_id/pdf", async (c) => {
    const statementId = c.req.param("statement_id");
    const now = c.get("now")().getTime();
    const check = await verifyStatementLink(
      c.get("signer"),
      statementId,
      c.req.query("expires"),
      c.req.query("signature"),
      now,
    );
    if (check === "expired") {
      throw new ApiError(
        "FORBIDDEN_ERROR",
        "This link has expired: read the statement again for a fresh one.",
      );
    }
    if (check === "invalid") throw new ApiError("FORBIDDEN_ERROR", "This link is not valid.");

    const [row] = await c
      .get("db")
      .select({ pdfKey: statements.pdfKey, hiddenAt: statements.hiddenAt })
      .from(statements)
      .where(eq(statements.statementId, statementId));
    const gone = () =>
      new ApiError("STATEMENT_NOT_FOUND_ERROR", "This statement is no longer available.");
    if (!row?.pdfKey || row.hiddenAt !== null) throw gone();

    const object =
      c.req.method === "HEAD"
        ? await c.env.PDFS.head(row.pdfKey)
        : await c.env.PDFS.get(row.pdfKey, { onlyIf: c.req.raw.headers });
    if (!object) throw gone();

    const remaining = Math.max(0, Math.floor((Number(c.req.query("expires")) - now) / 1000));
    const headers = new Headers({
      "Content-Type": "application/pdf",
      "Content-Length": String(object.size),
      ETag: object.httpEtag,
      "Cache-Control": `private, max-age=${remaining}`,
      "Content-Disposition": `inline; filename="statement.pdf"`,
    });
    if (c.req.method === "HEAD") return new Response(null, { status: 200, headers });
    if (!("body" in object)) {
      headers.delete("Content-Length");
      return new Response(null, { status: 304, headers });
    }
    return new Response((object as R2ObjectBody).body, { status: 200, headers });
  });
