// Validation of the operator import payload: every problem is reported with its item and field.
import * as z from "zod";
import type { Environment } from "./environment";
import { JURISDICTIONS } from "./jurisdiction";
import { SHARD_CODE } from "./shard-code";
import { normaliseTimestamp } from "./timestamp";
import { describeProblem, relevantIssues } from "./validation-messages";

/**
 * The import's amount fields, with the column each one is stored in. The import's names, not the
 * API's: they change only with the operator import, never with an API version.
 */
export const IMPORT_AMOUNT_FIELDS = [
  ["statement_balance", "statementBalance"],
  ["minimum_due", "minimumDue"],
  ["previous_balance", "previousBalance"],
  ["purchases", "purchases"],
  ["payments", "payments"],
  ["credits", "credits"],
  ["refunds", "refunds"],
  ["interest", "interest"],
  ["fees", "fees"],
  ["overdue_amount", "overdueAmount"],
] as const;

type ImportAmountField = (typeof IMPORT_AMOUNT_FIELDS)[number][0];

/** Card-statement sign convention: charges positive, money credited back negative. */
const AMOUNT_SIGNS: Partial<Record<ImportAmountField, "positive" | "negative">> = {
  purchases: "positive",
  interest: "positive",
  fees: "positive",
  payments: "negative",
  credits: "negative",
  refunds: "negative",
};

const MAX_ITEMS = 5000;

/** Ids every route can address: no dot segments, no controls or spaces, nothing to escape. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

const id = z
  .string()
  .regex(
    ID_PATTERN,
    "must be 1 to 128 letters, digits, '_', '-' or '.', starting with a letter or digit",
  );
const environment = z.enum(["sandbox", "production"]);
const amount = z
  .number()
  .int()
  .refine(Number.isSafeInteger, "is out of range: integers up to 2^53 - 1 in size");

/** An RFC 3339 timestamp, normalised to UTC with milliseconds (the stored and served form). */
const timestamp = z.string().transform((value, ctx) => {
  const normalised = normaliseTimestamp(value);
  if (normalised === null) {
    ctx.addIssue({ code: "custom", message: "must be an RFC 3339 timestamp" });
    return z.NEVER;
  }
  return normalised;
});

/** How a product's statement documents come to be: rendered by the service, or uploaded. */
export const DOCUMENT_SOURCES = ["rendered", "uploaded"] as const;

/** A new product renders its documents unless it says `uploaded`; a stored one keeps its own. */
const Product = z.strictObject({
  merchant_key: id,
  name: z.string().min(1).max(255),
  documents: z.enum(DOCUMENT_SOURCES).optional(),
});

/** Whether `environment` offers `version`: a saved version must be one it offers. */
export type VersionOffered = (version: string, environment: Environment) => boolean;

const partnerOf = (offered: VersionOffered) =>
  z.strictObject({
    partner_id: id,
    name: z.string().min(1).max(255),
    /** The shard a new partner is placed on (default: see src/operator/import-placement.ts). */
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

const currency = z.string().regex(/^[A-Z]{3}$/, "must be 3 capital letters (ISO 4217)");

const Account = z.strictObject({
  account_id: id,
  customer_id: id,
  status: z.string().min(1).max(64).optional(),
  currency: currency.optional(),
  credit_limit: amount.optional(),
  current_balance: amount.optional(),
  available_credit: amount.optional(),
});

const amountShape = Object.fromEntries(
  IMPORT_AMOUNT_FIELDS.map(([field]) => {
    const sign = AMOUNT_SIGNS[field];
    let rule = amount;
    if (sign === "positive") rule = rule.refine((v) => v >= 0, "must not be negative (a charge)");
    if (sign === "negative") rule = rule.refine((v) => v <= 0, "must not be positive (a credit)");
    if (field === "minimum_due" || field === "overdue_amount") {
      rule = rule.refine((v) => v >= 0, "must not be negative");
    }
    return [field, rule.optional()];
  }),
) as Record<ImportAmountField, z.ZodOptional<typeof amount>>;

const Statement = z
  .strictObject({
    statement_id: id,
    account_id: id,
    period_start_date: timestamp.optional(),
    period_end_date: timestamp,
    due_date: timestamp.optional(),
    currency: currency.optional(),
    ...amountShape,
  })
  .superRefine((s, ctx) => {
    if (s.period_start_date !== undefined && s.period_start_date > s.period_end_date) {
      ctx.addIssue({
        code: "custom",
        path: ["period_start_date"],
        message: "must not be after period_end_date",
      });
    }
  });

/** The id field of each payload section. */
const ID_FIELD: Record<string, string> = {
  partners: "partner_id",
  customers: "customer_id",
  accounts: "account_id",
  statements: "statement_id",
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
      statements: z.array(Statement).max(MAX_ITEMS).optional(),
    })
    .superRefine((payload, ctx) => {
      for (const [section, field] of Object.entries(ID_FIELD)) {
        const items = (payload[section as keyof typeof payload] ?? []) as Record<string, unknown>[];
        refuseRepeats(
          ctx,
          items.map((item, i) => ({
            id: String(item[field]),
            path: [section, i, field],
            where: `${section}[${i}]`,
          })),
        );
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
export type PartnerInput = NonNullable<ImportPayload["partners"]>[number];
export type CustomerInput = z.infer<typeof Customer>;
export type AccountInput = z.infer<typeof Account>;
export type StatementInput = z.infer<typeof Statement>;

/** `statements[3] ("st_9").period_end_date: must be an RFC 3339 timestamp` */
function describeIssue(input: unknown, issue: z.core.$ZodIssue): string {
  const [section, index, ...rest] = issue.path;
  let where = issue.path.length === 0 ? "body" : String(section);
  if (typeof index === "number") {
    where += `[${index}]`;
    const item = (input as Record<string, unknown[]>)[String(section)]?.[index];
    const itemId = (item as Record<string, unknown> | undefined)?.[ID_FIELD[String(section)] ?? ""];
    if (typeof itemId === "string") where += ` (${JSON.stringify(itemId.slice(0, 64))})`;
  }
  for (const part of rest) where += typeof part === "number" ? `[${part}]` : `.${String(part)}`;
  return `${where}: ${describeProblem(input, issue)}`;
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
