// GET|HEAD /files/statements/{statement_id}/pdf: the signed link target; no API key needed.
// Conditional and range requests follow RFC 9110, evaluated here rather than by R2, so that a
// malformed header is ignored as the RFC says instead of failing the request.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { limitPerClientIp } from "../app/rate-limit";
import { RATE_LIMITS } from "../app/rate-policies";
import { documentStoreOf } from "../db/jurisdiction-stores";
import { verifyStatementLink } from "../domain/statement-link";
import { evaluate, formatHttpDate, type Representation } from "./conditional-requests";
import { findStatementDocument } from "./statement-document";

const gone = () =>
  new ApiError("STATEMENT_NOT_FOUND_ERROR", "This statement is no longer available.");

/** Request headers that can make the answer something other than the whole document. */
const DECIDING_HEADERS = [
  "if-match",
  "if-none-match",
  "if-modified-since",
  "if-unmodified-since",
  "range",
];

/** The representation's validators, at the one-second precision of an HTTP-date. */
function representationOf(object: R2Object): Representation {
  const seconds = Math.floor(object.uploaded.getTime() / 1000);
  return { etag: object.httpEtag, lastModified: new Date(seconds * 1000), size: object.size };
}

export const fileRoutes = new Hono<AppEnv>()
  .use("/files/*", limitPerClientIp(RATE_LIMITS.pdfLink))
  .on(["GET", "HEAD"], "/files/statements/:statement_id/pdf", async (c) => {
    const statementId = c.req.param("statement_id");
    const now = c.get("now")();
    const expires = c.req.query("expires");
    const link = await verifyStatementLink(
      c.get("signer"),
      statementId,
      { expires, signature: c.req.query("signature"), keyId: c.req.query("kid") },
      now.getTime(),
    );
    if (link.check === "expired") {
      throw new ApiError(
        "FORBIDDEN_ERROR",
        "This link has expired: read the statement again for a fresh one.",
      );
    }
    if (link.check === "invalid") throw new ApiError("FORBIDDEN_ERROR", "This link is not valid.");

    // The link names its statement's shard, signed: no directory, one round trip.
    const row = await findStatementDocument(c.get("shards"), link.shard, statementId);
    if (!row?.pdfKey || row.hiddenAt !== null) throw gone();

    const method = c.req.method === "HEAD" ? "HEAD" : "GET";
    // The bucket of the jurisdiction of the shard that holds the statement.
    const documents = documentStoreOf(c.env, row.shard);
    // A plain GET reads the document at once. HEAD, and a request whose preconditions or range
    // decide what is sent, read the metadata first: no body is started only to be dropped, and a
    // document's bytes never change under its key, so a later read sends what was evaluated.
    const plain = method === "GET" && !DECIDING_HEADERS.some((name) => c.req.raw.headers.has(name));
    const whole = plain ? await documents.get(row.pdfKey) : null;
    const object = plain ? whole : await documents.head(row.pdfKey);
    if (!object) throw gone();
    const rep = representationOf(object);

    // A document's bytes never change under its key, so a browser may keep it as long as the
    // link lives; never a shared cache: it is one customer's statement.
    const remaining = Math.max(0, Math.floor((Number(expires) - now.getTime()) / 1000));
    const headers = new Headers({
      ETag: rep.etag,
      "Last-Modified": formatHttpDate(rep.lastModified),
      "Cache-Control": `private, max-age=${remaining}`,
    });
    const outcome = evaluate(method, c.req.raw.headers, rep, now);
    if (outcome.status === 304) {
      return new Response(null, { status: 304, headers });
    }
    if (outcome.status === 412) {
      throw new ApiError(
        "PRECONDITION_FAILED_ERROR",
        "The document does not match the request's preconditions.",
        { headers: Object.fromEntries(headers) },
      );
    }
    if (outcome.status === 416) {
      throw new ApiError(
        "RANGE_NOT_SATISFIABLE_ERROR",
        `The range asked for is outside the document's ${rep.size} bytes.`,
        { headers: { ...Object.fromEntries(headers), "Content-Range": `bytes */${rep.size}` } },
      );
    }

    headers.set("Content-Type", "application/pdf");
    headers.set("Content-Disposition", 'inline; filename="statement.pdf"');
    headers.set("Accept-Ranges", "bytes");
    if (outcome.status === 206) {
      const part = await documents.get(row.pdfKey, {
        range: { offset: outcome.offset, length: outcome.length },
      });
      if (!part) throw gone();
      const last = outcome.offset + outcome.length - 1;
      headers.set("Content-Range", `bytes ${outcome.offset}-${last}/${rep.size}`);
      headers.set("Content-Length", String(outcome.length));
      return new Response(part.body, { status: 206, headers });
    }
    headers.set("Content-Length", String(rep.size));
    if (method === "HEAD") return new Response(null, { status: 200, headers });
    const document = whole ?? (await documents.get(row.pdfKey));
    if (!document) throw gone();
    return new Response(document.body, { status: 200, headers });
  });
