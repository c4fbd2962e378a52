// The local outbox: mail kept in the directory database instead of sent (it belongs to no
// partner), read back by tests and `npm start`.
import { and, asc, eq, gt, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { outbox } from "../db/directory-schema";

export interface StoredMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: string;
}

export async function storeMail(
  db: Database,
  mail: { to: string; subject: string; text: string; html?: string },
  now: Date,
): Promise<void> {
  await db.insert(outbox).values({
    recipient: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html ?? null,
    createdAt: now.toISOString(),
  });
}

/** Mail after `afterId`, oldest first, to one address when given. */
export async function readOutbox(
  db: Database,
  filter: { to: string | null; afterId: number; limit: number },
): Promise<StoredMail[]> {
  const conditions: SQL[] = [gt(outbox.id, filter.afterId)];
  if (filter.to !== null) conditions.push(eq(outbox.recipient, filter.to));
  const rows = await db
    .select()
    .from(outbox)
    .where(and(...conditions))
    .orderBy(asc(outbox.id))
    .limit(filter.limit);
  return rows.map(({ recipient, ...rest }) => ({ to: recipient, ...rest }));
}
