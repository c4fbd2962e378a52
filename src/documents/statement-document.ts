// Which document a PDF link serves: the statement's row on the shard the link names. A shard a
// move is running on (its fence table holds a row) may keep a moved partner's old copy for the
// hour its links live: there the partner's forward is checked too, and followed, so a statement
// hidden or given a new document since the move is served as it now is.
import { eq, sql } from "drizzle-orm";
import { accounts } from "../accounts/schema";
import { partners } from "../db/schema";
import { followForwards, here, movedTo, type Shards } from "../db/shards";
import { statements } from "../statements/schema";

export interface StatementDocument {
  pdfKey: string | null;
  hiddenAt: string | null;
  /** The shard whose row this is: its jurisdiction's bucket holds the document. */
  shard: string;
}

/**
 * The statement's document state, starting on shard `shard`: one round trip and one row read
 * (the fence probe reads no row when no move runs there); null for a statement found nowhere.
 */
export async function findStatementDocument(
  shards: Shards,
  shard: string,
  statementId: string,
): Promise<StatementDocument | null> {
  const found = await followForwards(shards, shard, async (db) => {
    const [row] = await db
      .select({
        pdfKey: statements.pdfKey,
        hiddenAt: statements.hiddenAt,
        accountId: statements.accountId,
        fenced: sql<number | null>`(SELECT 1 FROM move_fences LIMIT 1)`,
      })
      .from(statements)
      .where(eq(statements.statementId, statementId));
    if (!row) return null;
    if (row.fenced === null) return here(row);
    const [owner] = await db
      .select({ movedTo: partners.movedTo })
      .from(accounts)
      .innerJoin(partners, eq(partners.partnerId, accounts.partnerId))
      .where(eq(accounts.accountId, row.accountId));
    return owner?.movedTo ? movedTo<typeof row>(owner.movedTo) : here(row);
  });
  return (
    found && { pdfKey: found.value.pdfKey, hiddenAt: found.value.hiddenAt, shard: found.shard }
  );
}
