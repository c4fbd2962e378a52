// The rewards categories of a product on its dashboard section: a table for members who may only
// look, and for Admins a form of one row per category (and a few empty rows to add more), sent as
// the whole list the operator API's product change takes, checked by the same schema.
import type { Context } from "hono";
import type { AppEnv } from "../app/context";
import { validationError } from "../app/operator-requests";
import { field } from "../dashboard/forms";
import { CsrfField } from "../dashboard/layout";
import { Table } from "../dashboard/table";
import { EARN_UNITS, MAX_CATEGORY_NAME, MAX_REWARDS_CATEGORIES } from "../domain/rewards";
import { type ProductChange, ProductChangeSchema, type ProductSettings } from "./presentation";

/** Empty rows the form offers under the product's categories, for new ones. */
const SPARE_ROWS = 3;

const UNIT_LABELS: Record<(typeof EARN_UNITS)[number], string> = {
  POINTS_PER_DOLLAR: "points per dollar",
  PERCENT_CASH_BACK: "% cash back",
};

/** The product's categories as they stand, for a member who may not change them. */
export function RewardsCategoriesTable({ product }: { product: ProductSettings }) {
  const categories = product.rewardsCategories ?? [];
  if (categories.length === 0) return <p>No rewards categories.</p>;
  return (
    <Table
      caption={`Rewards categories of ${product.name}`}
      columns={["Category", "Id", "Merchant category codes", "Earns"]}
    >
      {categories.map((category) => (
        <tr>
          <td>{category.name}</td>
          <td>
            <code>{category.category_id}</code>
          </td>
          <td>{category.merchant_category_codes.join(" ") || "Every other purchase"}</td>
          <td>
            {category.earn_rate} {UNIT_LABELS[category.earn_unit]}
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** The form that replaces the product's categories; `id` names its fields per product. */
export function RewardsCategoriesForm(props: {
  product: ProductSettings;
  id: (name: string) => string;
}) {
  const { product, id } = props;
  const categories = product.rewardsCategories ?? [];
  const rows = Math.min(categories.length + SPARE_ROWS, MAX_REWARDS_CATEGORIES);
  return (
    <form
      method="post"
      action={`/dashboard/documents/${product.merchantKey}/rewards`}
      class="stack"
      aria-labelledby={id("rewards-heading")}
    >
      <CsrfField />
      <h3 id={id("rewards-heading")}>Rewards categories</h3>
      <p class="muted">
        In the order cardholders see them. Codes are four-digit merchant category codes separated by
        spaces; a category without codes earns on every purchase no other category covers. All
        categories earn in one unit. Empty a row's id to remove it.
      </p>
      <input type="hidden" name="rows" value={String(rows)} />
      <Table
        caption={`Rewards categories of ${product.name}`}
        columns={["Id", "Name", "Merchant category codes", "Earn rate", "Unit"]}
      >
        {Array.from({ length: rows }, (_, i) => {
          const category = categories[i];
          const label = (what: string) => `${what} of row ${i + 1}`;
          return (
            <tr>
              <td>
                <input
                  name={`category_id_${i}`}
                  aria-label={label("Id")}
                  value={category?.category_id ?? ""}
                />
              </td>
              <td>
                <input
                  name={`name_${i}`}
                  aria-label={label("Name")}
                  maxlength={MAX_CATEGORY_NAME}
                  value={category?.name ?? ""}
                />
              </td>
              <td>
                <input
                  name={`codes_${i}`}
                  aria-label={label("Merchant category codes")}
                  value={category?.merchant_category_codes.join(" ") ?? ""}
                />
              </td>
              <td>
                <input
                  name={`earn_rate_${i}`}
                  aria-label={label("Earn rate")}
                  inputmode="decimal"
                  value={category?.earn_rate ?? ""}
                />
              </td>
              <td>
                <select name={`earn_unit_${i}`} aria-label={label("Unit")}>
                  {EARN_UNITS.map((unit) => (
                    <option value={unit} selected={category?.earn_unit === unit}>
                      {UNIT_LABELS[unit]}
                    </option>
                  ))}
                </select>
              </td>
            </tr>
          );
        })}
      </Table>
      <div>
        <button type="submit">Replace the rewards categories of {product.name}</button>
      </div>
    </form>
  );
}

/**
 * The form's categories as the operator API's product change would receive them: each row with
 * an id, in order (rows past the most a product holds are not read). A 400 names the row's
 * category and field, as the operator API does.
 */
export async function rewardsChangeFromForm(c: Context<AppEnv>): Promise<ProductChange> {
  const rows = Math.min(Number.parseInt(await field(c, "rows"), 10) || 0, MAX_REWARDS_CATEGORIES);
  const categories: Record<string, unknown>[] = [];
  for (let i = 0; i < rows; i++) {
    const categoryId = (await field(c, `category_id_${i}`)).trim();
    if (categoryId === "") continue;
    categories.push({
      category_id: categoryId,
      name: (await field(c, `name_${i}`)).trim(),
      merchant_category_codes: (await field(c, `codes_${i}`)).split(/[\s,]+/).filter(Boolean),
      earn_rate: (await field(c, `earn_rate_${i}`)).trim(),
      earn_unit: await field(c, `earn_unit_${i}`),
    });
  }
  const change = { rewards_categories: categories };
  const parsed = await ProductChangeSchema.safeParseAsync(change);
  if (!parsed.success) throw validationError(parsed.error, change);
  return parsed.data;
}
