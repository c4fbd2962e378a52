// Partner lookups the dashboard side and the operator need.
import { asc, eq } from "drizzle-orm";
import type { Jurisdiction } from "../domain/jurisdiction";
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

/** A partner as the operator reads it (on its shard). */
export interface PartnerRecord {
  partnerId: string;
  name: string;
  savedVersionSandbox: string;
  savedVersionProduction: string;
  createdAt: string;
  /** Where its data must stay: set when it was created, never changed. */
  jurisdiction: Jurisdiction;
  products: Product[];
}

/** The partner and its products, or null for an unknown partner id. */
export async function readPartner(db: Database, partnerId: string): Promise<PartnerRecord | null> {
  const [[row], owned] = await db.batch([
    db
      .select({
        partnerId: partners.partnerId,
        name: partners.name,
        savedVersionSandbox: partners.savedVersionSandbox,
        savedVersionProduction: partners.savedVersionProduction,
        createdAt: partners.createdAt,
        jurisdiction: partners.jurisdiction,
      })
      .from(partners)
      .where(eq(partners.partnerId, partnerId)),
    db
      .select({ merchantKey: products.merchantKey, name: products.name })
      .from(products)
      .where(eq(products.partnerId, partnerId))
      .orderBy(asc(products.merchantKey)),
  ]);
  return row ? { ...row, products: owned } : null;
}

/** The partner's jurisdiction, or null for an unknown partner id. */
export async function partnerJurisdiction(
  db: Database,
  partnerId: string,
): Promise<Jurisdiction | null> {
  const [row] = await db
    .select({ jurisdiction: partners.jurisdiction })
    .from(partners)
    .where(eq(partners.partnerId, partnerId));
  return row?.jurisdiction ?? null;
}
