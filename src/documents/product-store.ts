// Products' documents, presentation and rewards categories in D1 (the logo's bytes in R2, under their content hash):
// read by the operator API and the dashboard, changed by either in one atomic batch with the audit
// rows that record who changed what.
import { and, asc, eq, sql } from "drizzle-orm";
import { auditInsert } from "../db/audit";
import { atomically } from "../db/batch";
import type { Database } from "../db/client";
import { products } from "../db/schema";
import type { DocumentStore } from "../db/storage";
import type { Actor } from "../domain/audit";
import { toHex } from "../domain/encoding";
import type { ProductChange, ProductSettings } from "./presentation";
import type { ProductLook } from "./render-input";

/** The columns of how a product presents its documents: its look and the terms they disclose. */
export const PRODUCT_LOOK = {
  name: products.name,
  displayName: products.displayName,
  accentColour: products.accentColour,
  logoKey: products.logoKey,
  logoMediaType: products.logoMediaType,
  logoAltText: products.logoAltText,
  billingRightsAddress: products.billingRightsAddress,
  latePayment: products.latePayment,
  minimumPayment: products.minimumPayment,
  creditCounselingPhone: products.creditCounselingPhone,
  rewardsCategories: products.rewardsCategories,
} satisfies Record<keyof ProductLook, unknown>;

const SETTINGS = {
  merchantKey: products.merchantKey,
  partnerId: products.partnerId,
  documents: products.documents,
  ...PRODUCT_LOOK,
};

/** The audit log's name of each changed presentation column (logo columns are one field). */
const AUDITED_FIELDS: Record<string, string> = {
  displayName: "display_name",
  accentColour: "accent_colour",
  logoKey: "logo",
  logoMediaType: "logo",
  logoAltText: "logo",
  billingRightsAddress: "billing_rights_address",
  latePayment: "late_payment",
  minimumPayment: "minimum_payment",
  creditCounselingPhone: "credit_counseling_phone",
};

/** A partner's products, by merchant key. */
export function readProductSettings(db: Database, partnerId: string): Promise<ProductSettings[]> {
  return db
    .select(SETTINGS)
    .from(products)
    .where(eq(products.partnerId, partnerId))
    .orderBy(asc(products.merchantKey));
}

/** One product, whichever partner's; null when there is none. */
export async function readProduct(
  db: Database,
  merchantKey: string,
): Promise<ProductSettings | null> {
  const [row] = await db
    .select(SETTINGS)
    .from(products)
    .where(eq(products.merchantKey, merchantKey));
  return row ?? null;
}

async function logoObjectKey(merchantKey: string, bytes: Uint8Array, extension: string) {
  const hex = toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
  return `products/${encodeURIComponent(merchantKey)}/logo-${hex}.${extension}`;
}

/** Why a change cannot apply to the product as it stands, or null. */
export function changeProblem(product: ProductSettings, change: ProductChange): string | null {
  if (change.logo_alt_text !== undefined && change.logo === undefined && !product.logoKey) {
    return "logo_alt_text: the product has no logo to describe";
  }
  return null;
}

/** The product's columns a change may write. */
type ProductColumns = Partial<typeof products.$inferInsert>;

/**
 * The columns a change writes: its fields as stored (trimmed, lower-cased, the logo uploaded and
 * named by its key), less those that already hold the same value.
 */
async function changedColumns(
  documents: DocumentStore,
  product: ProductSettings,
  change: ProductChange,
): Promise<ProductColumns> {
  const set: ProductColumns = {};
  if (change.documents !== undefined) set.documents = change.documents;
  if (change.display_name !== undefined) set.displayName = change.display_name?.trim() ?? null;
  if (change.accent_colour !== undefined) {
    set.accentColour = change.accent_colour?.toLowerCase() ?? null;
  }
  if (change.logo === null) {
    Object.assign(set, { logoKey: null, logoMediaType: null, logoAltText: null });
  } else if (change.logo !== undefined) {
    const { bytes, media_type, alt_text } = change.logo;
    const key = await logoObjectKey(
      product.merchantKey,
      bytes,
      media_type === "image/png" ? "png" : "jpg",
    );
    await documents.put(key, bytes, media_type);
    Object.assign(set, { logoKey: key, logoMediaType: media_type, logoAltText: alt_text.trim() });
  }
  if (change.logo_alt_text !== undefined) set.logoAltText = change.logo_alt_text.trim();
  if (change.billing_rights_address !== undefined) {
    set.billingRightsAddress = change.billing_rights_address?.map((line) => line.trim()) ?? null;
  }
  if (change.late_payment !== undefined) set.latePayment = change.late_payment;
  if (change.minimum_payment !== undefined) set.minimumPayment = change.minimum_payment;
  if (change.credit_counseling_phone !== undefined) {
    set.creditCounselingPhone = change.credit_counseling_phone?.trim() ?? null;
  }
  if (change.rewards_categories !== undefined) {
    // A product with no categories is stored as one that never had any.
    set.rewardsCategories = change.rewards_categories.length > 0 ? change.rewards_categories : null;
  }
  // Only what changes is written, and audited (terms compared by value, as JSON).
  for (const [field, value] of Object.entries(set)) {
    // Every key of `set` is one assigned above: a column of the settings as well.
    const key = field as keyof typeof set & keyof ProductSettings;
    if (JSON.stringify(product[key] ?? null) === JSON.stringify(value ?? null)) delete set[key];
  }
  return set;
}

/** The audit entries of a change, each written only while the product is still the partner's. */
function auditsOf(product: ProductSettings, set: ProductColumns, actor: Actor, now: Date) {
  const stillTheirs = sql`EXISTS (SELECT 1 FROM products WHERE merchant_key = ${product.merchantKey}
    AND partner_id = ${product.partnerId})`;
  const audits = [];
  const presentation = Object.keys(set).filter(
    (field) => field !== "documents" && field !== "rewardsCategories",
  );
  if (presentation.length > 0) {
    const fields = [...new Set(presentation.map((f) => AUDITED_FIELDS[f] ?? f))];
    audits.push(
      auditInsert(
        product.partnerId,
        actor,
        {
          action: "product.presentation_changed",
          target: product.merchantKey,
          details: { fields },
        },
        now,
        { guard: stillTheirs },
      ),
    );
  }
  if (set.documents !== undefined) {
    audits.push(
      auditInsert(
        product.partnerId,
        actor,
        {
          action: "product.documents_changed",
          target: product.merchantKey,
          details: { from: product.documents, to: set.documents },
        },
        now,
        { guard: stillTheirs },
      ),
    );
  }
  if (set.rewardsCategories !== undefined) {
    audits.push(
      auditInsert(
        product.partnerId,
        actor,
        {
          action: "product.rewards_categories_changed",
          target: product.merchantKey,
          details: {
            from: (product.rewardsCategories ?? []).map((c) => c.category_id),
            to: (set.rewardsCategories ?? []).map((c) => c.category_id),
          },
        },
        now,
        { guard: stillTheirs },
      ),
    );
  }
  return audits;
}

/**
 * Applies `change` to `product` of its partner (a logo is stored first, under its content hash),
 * with an audit row for its presentation, one for its documents and one for its rewards
 * categories, each only when it changed:
 * a field set to what it already is changes nothing.
 * Answers the product as it now stands, or null when it is no longer the partner's.
 */
export async function changeProduct(
  deps: { db: Database; documents: DocumentStore },
  product: ProductSettings,
  change: ProductChange,
  actor: Actor,
  now: Date,
): Promise<ProductSettings | null> {
  const set = await changedColumns(deps.documents, product, change);
  const ofPartner = and(
    eq(products.merchantKey, product.merchantKey),
    eq(products.partnerId, product.partnerId),
  );
  if (Object.keys(set).length === 0) {
    const [row] = await deps.db.select(SETTINGS).from(products).where(ofPartner);
    return row ?? null;
  }

  const audits = auditsOf(product, set, actor, now);
  const [updated] = await atomically(deps.db, [
    ...audits,
    deps.db.update(products).set(set).where(ofPartner).returning(SETTINGS),
  ]).then((results) => results.slice(audits.length));
  // The batch's last statement is the UPDATE above: its RETURNING rows, by column name.
  const [row] = (updated?.results ?? []) as Record<string, unknown>[];
  return row ? settingsOf(row) : null;
}

/** A product row as D1 answers it in a batch (by column name, JSON as text), as settings. */
function settingsOf(row: Record<string, unknown>): ProductSettings {
  // Each field of SETTINGS with its column's value as drizzle maps it: the row drizzle's own
  // select of SETTINGS answers, which is a ProductSettings (readProductSettings).
  return Object.fromEntries(
    Object.entries(SETTINGS).map(([field, column]) => {
      const value = row[column.name];
      return [
        field,
        value === null || value === undefined ? null : column.mapFromDriverValue(value),
      ];
    }),
  ) as unknown as ProductSettings;
}
