// Storing a statement's document, whoever made it (the operator's upload, or the service's own
// render): the bytes go to R2 under their content hash, then one atomic batch points the
// statement at them, records `statement.pdf_available` for the first document of a visible
// statement (with its webhook deliveries), and sets what became of the statement's render.
import { type SQL, sql } from "drizzle-orm";
import { atomically } from "../db/batch";
import type { Database } from "../db/client";
import type { DocumentStore } from "../db/storage";
import { toHex } from "../domain/encoding";
import { deliveriesOf, enqueueDeliveries, statementEventWrites } from "../webhook-deliveries";
import { type RenderRef, renderStillPending } from "./render-store";

/** What storing a document needs: the partner's database, the bucket and the webhook queue. */
export interface DocumentDeps {
  db: Database;
  /** The shard `db` is: the deliveries' messages name it. */
  shard: string;
  documents: DocumentStore;
  webhooks: Queue;
  /** Names the work in logs: the request id, or the render's statement. */
  requestId: string;
  now: Date;
}

/**
 * Who made the document. An upload replaces whatever the statement has and supersedes its
 * render, so that no render in flight overwrites it; a render stores its document only while it
 * is still the statement's pending render of that generation.
 */
export type DocumentSource = { kind: "upload" } | { kind: "render"; ref: RenderRef };

/**
 * The R2 object key of a statement's PDF: named by its content, so a new document never
 * overwrites the bytes a stored row points to, and the same document is stored once however
 * often it is rendered. The row moves to the new object only once it is fully stored: a failure
 * at any step leaves the statement with its previous document.
 */
async function pdfObjectKey(statementId: string, bytes: Uint8Array): Promise<string> {
  const hex = toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
  return `statements/${encodeURIComponent(statementId)}/${hex}.pdf`;
}

/**
 * Stores `bytes` as the statement's document; answers whether the statement now points at them
 * (false only for a render that an upload or a newer render overtook).
 */
export async function storeStatementDocument(
  deps: DocumentDeps,
  statementId: string,
  bytes: Uint8Array,
  source: DocumentSource,
): Promise<boolean> {
  const key = await pdfObjectKey(statementId, bytes);
  await deps.documents.put(key, bytes, "application/pdf");
  const at = deps.now.toISOString();
  const mayStore: SQL = source.kind === "render" ? renderStillPending(source.ref) : sql`true`;
  // The first document of a visible statement is announced; a replaced one is not.
  const announced = statementEventWrites(
    "statement.pdf_available",
    JSON.stringify([[statementId]]),
    at,
    sql`s.pdf_key IS NULL AND s.hidden_at IS NULL AND ${mayStore}`,
  );
  const point = sql`UPDATE statements SET pdf_key = ${key}
    WHERE statement_id = ${statementId} AND ${mayStore} RETURNING statement_id`;
  const render =
    source.kind === "render"
      ? sql`UPDATE statement_renders SET status = 'rendered', completed_at = ${at}, error = NULL
          WHERE statement_id = ${statementId} AND generation = ${source.ref.generation}
            AND status = 'pending'`
      : sql`UPDATE statement_renders SET status = 'superseded', completed_at = ${at}
          WHERE statement_id = ${statementId} AND status <> 'superseded'`;
  const [, created, pointed] = await atomically(deps.db, [
    announced.events,
    announced.deliveries,
    point,
    render,
  ]);
  await enqueueDeliveries(
    deps.webhooks,
    deliveriesOf(created ? [created] : [], deps.shard),
    deps.requestId,
  );
  return (pointed?.results.length ?? 0) > 0;
}
