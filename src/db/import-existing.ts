// The import's one read round trip: every stored row a payload refers to or would overwrite.
import { inArray } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ImportPayload } from "../domain/import-payload";
import type { Database } from "./client";
import { accounts, customers, partners, products, statements } from "./schema";

type StatementRow = typeof statements.$inferSelect;

/** D1 binds at most 100 parameters per statement. */
function chunks<T>(items: readonly T[], size = 90): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Reads, in one round trip, every stored row the payload refers to or would overwrite. */
export async function readExisting(db: Database, payload: ImportPayload) {
  const partnerIds = new Set<string>();
  const merchantKeys = new Set<string>();
  const customerIds = new Set<string>();
  const accountIds = new Set<string>();
  for (const p of payload.partners ?? []) {
    partnerIds.add(p.partner_id);
    for (const product of p.products ?? []) merchantKeys.add(product.merchant_key);
  }
  for (const c of payload.customers ?? []) {
    partnerIds.add(c.partner_id);
    merchantKeys.add(c.merchant_key);
    customerIds.add(c.customer_id);
  }
  for (const a of payload.accounts ?? []) {
    customerIds.add(a.customer_id);
    accountIds.add(a.account_id);
  }
  for (const s of payload.statements ?? []) accountIds.add(s.account_id);
  const statementIds = (payload.statements ?? []).map((s) => s.statement_id);

  const queries: BatchItem<"sqlite">[] = [];
  const kinds: string[] = [];
  const add = (kind: string, query: BatchItem<"sqlite">) => {
    kinds.push(kind);
    queries.push(query);
  };
  for (const ids of chunks([...partnerIds])) {
    add(
      "partner",
      db.select({ id: partners.partnerId }).from(partners).where(inArray(partners.partnerId, ids)),
    );
  }
  for (const ids of chunks([...merchantKeys])) {
    add("product", db.select().from(products).where(inArray(products.merchantKey, ids)));
  }
  for (const ids of chunks([...customerIds])) {
    add("customer", db.select().from(customers).where(inArray(customers.customerId, ids)));
  }
  for (const ids of chunks([...accountIds])) {
    add("account", db.select().from(accounts).where(inArray(accounts.accountId, ids)));
  }
  for (const ids of chunks(statementIds)) {
    add("statement", db.select().from(statements).where(inArray(statements.statementId, ids)));
  }

  const found = {
    partners: new Set<string>(),
    products: new Map<string, typeof products.$inferSelect>(),
    customers: new Map<string, typeof customers.$inferSelect>(),
    accounts: new Map<string, typeof accounts.$inferSelect>(),
    statements: new Map<string, StatementRow>(),
  };
  if (queries.length === 0) return found;
  const results = (await db.batch(queries as [BatchItem<"sqlite">])) as unknown as Record<
    string,
    unknown
  >[][];
  results.forEach((rows, i) => {
    for (const row of rows) {
      switch (kinds[i]) {
        case "partner":
          found.partners.add(row.id as string);
          break;
        case "product":
          found.products.set(row.merchantKey as string, row as typeof products.$inferSelect);
          break;
        case "customer":
          found.customers.set(row.customerId as string, row as typeof customers.$inferSelect);
          break;
        case "account":
          found.accounts.set(row.accountId as string, row as typeof accounts.$inferSelect);
          break;
        case "statement":
          found.statements.set(row.statementId as string, row as StatementRow);
          break;
      }
    }
  });
  return found;
}

export type Existing = Awaited<ReturnType<typeof readExisting>>;
