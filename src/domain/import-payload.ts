// Validation of the operator import payload: every problem is reported with its item and field.
import * as z from "zod";
import type { Environment } from "./environment";
import { amount, currency, id } from "./import-fields";
import { JURISDICTIONS } from "./jurisdiction";
import { MAX_LINE_ITEMS_PER_IMPORT } from "./line-item";
import { PaymentMethodItem, secretFieldProblem } from "./payment-method-item";
import { RewardsCategories } from "./rewards";
import { SHARD_CODE } from "./shard-code";
import { describeItemPath, StatementItem } from "./statement-item";
import { describeProblem, propertyOf, relevantIssues } from "./validation-messages";

export { ID_PATTERN } from "./import-fields";
export type { StatementInput } from "./statement-item";

const MAX_ITEMS = 5000;

const environment = z.enum(["sandbox", "production"]);

/** How a product's statement documents come to be: rendered by the service, or uploaded. */
export const DOCUMENT_SOURCES = ["rendered", "uploaded"] as const;

/**
 * A new product renders its documents unless it says `uploaded`; a stored one keeps its own. Its
 * rewards categories, when sent, replace the stored list; absent, they are kept.
 */
const Product = z.strictObject({
  merchant_key: id,
  name: z.string().min(1).max(255),
  documents: z.enum(DOCUMENT_SOURCES).optional(),
  rewards_categories: RewardsCategories.optional(),
});

/** Whether `environment` offers `version`: a saved version must be one it offers. */
export type VersionOffered = (version: string, environment: Environment) => boolean;

const partnerOf = (offered: VersionOffered) =>
  z.strictObject({
    partner_id: id,
    name: z.string().min(1).max(255),
    /** The shard a new partner is placed on (default: see src/imports/import-placement.ts). */
    shard: z.string().regex(SHARD_CODE, "must be a shard code, two letters or digits").optional(),
    /**
     * Where the partner's data must stay: set when it is created (`none` unless given), never
     * changed; it lives only on shards of this jurisdiction.
     */
    jurisdiction: z.enum(JURISDICTIONS).optional(),
    products: z.array(Product).max(100).optional(),
    saved_versions: z
      .strictObject({
        sandbox: z
          .string()
          .refine((v) => offered(v, "sandbox"), "is not a version sandbox offers")
          .optional(),
        production: z
          .string()
          .refine((v) => offered(v, "production"), "is not a released version")
          .optional(),
      })
      .optional(),
  });

const AuthorizedUser = z.strictObject({
  authorized_user_id: id,
  name: z.string().min(1).max(255),
});

const Customer = z.strictObject({
  customer_id: id,
  partner_id: id,
  environment,
  merchant_key: id,
  partner_customer_id: z.string().min(1).max(255).optional(),
  authorized_users: z.array(AuthorizedUser).max(100).optional(),
});

const Account = z.strictObject({
  account_id: id,
  customer_id: id,
  status: z.string().min(1).max(64).optional(),
  currency: currency.optional(),
  credit_limit: amount.optional(),
  current_balance: amount.optional(),
  available_credit: amount.optional(),
});

/** The id field of each payload section. */
const ID_FIELD: Record<string, string> = {
  partners: "partner_id",
  customers: "customer_id",
  accounts: "account_id",
  statements: "statement_id",
  payment_methods: "payment_method_id",
};

/** Reports each id already used by an earlier item: `…[2].statement_id: repeats statements[0]`. */
function refuseRepeats(
  ctx: z.RefinementCtx,
  items: { id: string; path: (string | number)[]; where: string }[],
): void {
  const first = new Map<string, string>();
  for (const item of items) {
    const earlier = first.get(item.id);
    if (earlier === undefined) first.set(item.id, item.where);
    else ctx.addIssue({ code: "custom", path: item.path, message: `repeats ${earlier}` });
  }
}

/** The import's schema, for the versions a bundle offers. */
export const importPayloadSchema = (offered: VersionOffered) =>
  z
    .strictObject({
      partners: z.array(partnerOf(offered)).max(MAX_ITEMS).optional(),
      customers: z.array(Customer).max(MAX_ITEMS).optional(),
      accounts: z.array(Account).max(MAX_ITEMS).optional(),
      statements: z.array(StatementItem).max(MAX_ITEMS).optional(),
      payment_methods: z.array(PaymentMethodItem).max(MAX_ITEMS).optional(),
    })
    .superRefine((payload, ctx) => {
      // Each section is a list of items, whose id is read by the field's name.
      const sections: Partial<Record<string, readonly Record<string, unknown>[]>> = payload;
      for (const [section, field] of Object.entries(ID_FIELD)) {
        const items = sections[section] ?? [];
        refuseRepeats(
          ctx,
          items.map((item, i) => ({
            id: String(item[field]),
            path: [section, i, field],
            where: `${section}[${i}]`,
          })),
        );
      }
      const lineItems = (payload.statements ?? []).reduce(
        (n, s) => n + (s.line_items?.length ?? 0),
        0,
      );
      if (lineItems > MAX_LINE_ITEMS_PER_IMPORT) {
        ctx.addIssue({
          code: "custom",
          path: ["statements"],
          message:
            `carry at most ${MAX_LINE_ITEMS_PER_IMPORT} line items in all (${lineItems} sent); ` +
            "send the rest in another import",
        });
      }
      const productCount = (payload.partners ?? []).reduce(
        (n, p) => n + (p.products?.length ?? 0),
        0,
      );
      if (productCount > MAX_ITEMS) {
        ctx.addIssue({
          code: "custom",
          path: ["partners"],
          message: `list at most ${MAX_ITEMS} products in all (${productCount} sent)`,
        });
      }
      // A merchant key names one product, whichever partner lists it.
      refuseRepeats(
        ctx,
        (payload.partners ?? []).flatMap((p, i) =>
          (p.products ?? []).map((product, j) => ({
            id: product.merchant_key,
            path: ["partners", i, "products", j, "merchant_key"],
            where: `partners[${i}].products[${j}]`,
          })),
        ),
      );
    });

export type ImportPayload = z.infer<ReturnType<typeof importPayloadSchema>>;

/** `statements[3] ("st_9").line_items[0] ("li_1").amount: must not be negative: …` */
function describeIssue(input: unknown, issue: z.core.$ZodIssue): string {
  const [section, index, ...rest] = issue.path;
  let where = issue.path.length === 0 ? "body" : String(section);
  if (typeof index !== "number") return `${where}: ${describeProblem(input, issue)}`;
  where += `[${index}]`;
  const item = propertyOf(propertyOf(input, String(section)), index);
  const itemId = propertyOf(item, ID_FIELD[String(section)] ?? "");
  if (typeof itemId === "string") where += ` (${JSON.stringify(itemId.slice(0, 64))})`;
  const problem =
    (section === "payment_methods" && secretFieldProblem(item, rest)) ||
    describeProblem(input, issue);
  return `${where}${describeItemPath(item, rest)}: ${problem}`;
}

/** Built once per set of versions offered. */
const schemas = new WeakMap<VersionOffered, ReturnType<typeof importPayloadSchema>>();

/**
 * The validated payload, or the list of problems (each naming its item and field); a saved
 * version must be one that `offered` says its environment offers.
 */
export function parseImportPayload(
  input: unknown,
  offered: VersionOffered,
): { ok: true; payload: ImportPayload } | { ok: false; details: string[] } {
  let schema = schemas.get(offered);
  if (!schema) {
    schema = importPayloadSchema(offered);
    schemas.set(offered, schema);
  }
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, payload: result.data };
  return {
    ok: false,
    details: relevantIssues(result.error.issues)
      .slice(0, 50)
      .map((i) => describeIssue(input, i)),
  };
}
