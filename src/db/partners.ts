// Partner lookups the dashboard side needs.
import { asc, eq } from "drizzle-orm";
import type { Product } from "../domain/product";
import type { Database } from "./client";
import { partners, products } from "./schema";

/** The partner's name, or null for an unknown partner id. */
export async function partnerName(db: Database, partnerId: string): Promise<string | null> {
  const [row] = await db
    .select({ name: partners.name })
    .from(partners)
    .where(eq(partners.partnerId, partnerId));
  return row?.name ?? null;
}

/** A partner's products (name and merchant key), by merchant key. */
export function productsOf(db: Database, partnerId: string): Promise<Product[]> {
  return db
    .select({ merchantKey: products.merchantKey, name: products.name })
    .from(products)
    .where(eq(products.partnerId, partnerId))
    .orderBy(asc(products.merchantKey));
}
