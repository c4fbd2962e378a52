// The canonical statements page, built from the rows its reads returned. The statements route and
// the dashboard's version preview both call this, so the preview shows exactly what the API sends.
import { encodePageToken, type PageBinding } from "../domain/page-token";
import type { Signer } from "../domain/signing";
import { type Statement, type StatementRecord, toStatement } from "../domain/statement";
import { LINK_LIFETIME_MS, signStatementLinks } from "../domain/statement-link";

export type StatementPageBody = {
  data: Statement[];
  has_more: boolean;
  next_page_token?: string;
};

/** The `i`th link signed: `signStatementLinks` answers one per statement id, in their order. */
function signedLink(links: readonly string[], i: number): string {
  const link = links[i];
  if (link === undefined) throw new Error(`Signing answered no link at ${i}.`);
  return link;
}

/**
 * The page of `limit` statements from `rows` (up to `limit + 1`, newest first; the extra row only
 * signals `has_more`), read from shard `deps.shard`: each PDF link signed for one hour from
 * `now`, and the signed token of the next page bound to `binding`; both name the shard.
 */
export async function buildStatementPage(
  deps: { signer: Signer; now: Date; origin: string; shard: string },
  binding: PageBinding,
  pageRows: readonly StatementRecord[],
  limit: number,
): Promise<StatementPageBody> {
  // One instant for the whole page: as_of, and the expiry of every link on it.
  const asOf = deps.now.toISOString();
  const expiresAt = deps.now.getTime() + LINK_LIFETIME_MS;
  const expiresAtText = new Date(expiresAt).toISOString();
  const rows = pageRows.slice(0, limit);
  const links = await signStatementLinks(
    deps.signer,
    deps.origin,
    rows.filter((row) => row.hasPdf).map((row) => row.statementId),
    expiresAt,
    deps.shard,
  );
  // Links come back in the order of the rows that have a PDF.
  let nextLink = 0;
  const data: Statement[] = rows.map((row) => {
    const pdf = row.hasPdf
      ? { url: signedLink(links, nextLink++), expires_at: expiresAtText }
      : undefined;
    return toStatement(row, binding.customerId, asOf, pdf);
  });

  const last = rows.at(-1);
  const hasMore = pageRows.length > limit && last !== undefined;
  const body: StatementPageBody = { data, has_more: hasMore };
  if (hasMore) {
    body.next_page_token = await encodePageToken(
      deps.signer,
      binding,
      { periodEndDate: last.periodEndDate, statementId: last.statementId },
      deps.shard,
    );
  }
  return body;
}

/**
 * One statement as the API shows it, read at `deps.now`: `as_of` that instant and, when the PDF is
 * stored, its link signed for one hour from it (naming shard `deps.shard`).
 */
export async function buildStatement(
  deps: { signer: Signer; now: Date; origin: string; shard: string },
  customerId: string,
  row: StatementRecord,
): Promise<Statement> {
  const asOf = deps.now.toISOString();
  const expiresAt = deps.now.getTime() + LINK_LIFETIME_MS;
  let pdf: Statement["pdf"];
  if (row.hasPdf) {
    const links = await signStatementLinks(
      deps.signer,
      deps.origin,
      [row.statementId],
      expiresAt,
      deps.shard,
    );
    pdf = { url: signedLink(links, 0), expires_at: new Date(expiresAt).toISOString() };
  }
  return toStatement(row, customerId, asOf, pdf);
}
