// Partner lookups the dashboard side needs.
import { eq } from "drizzle-orm";
import type { Database } from "./client";
import { partners } from "./schema";

/** The partner's name, or null for an unknown partner id. */
export async function partnerName(db: Database, partnerId: string): Promise<string | null> {
  const [row] = await db
    .select({ name: partners.name })
    .from(partners)
    .where(eq(partners.partnerId, partnerId));
  return row?.name ?? null;
}
