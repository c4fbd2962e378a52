// /dashboard/documents: how each of the partner's products presents its statement documents (the
// name they show, the accent colour, the logo and its alternative text, and the terms a periodic
// statement discloses: billing-rights address, late-payment terms, minimum-payment rule and
// credit-counselling number), and whether the service
// renders them or the operator uploads them, and the product's rewards categories. Admins change
// them, checked by the operator API's own rules (presentation.ts) and audited; everyone sees them.
import { Hono } from "hono";
import { userActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { ApiError, invalidRequest } from "../app/errors";
import { validationError } from "../app/operator-requests";
import { field, formFile } from "../dashboard/forms";
import { CsrfField } from "../dashboard/layout";
import { allow, type DashboardPage, may } from "../dashboard/page";
import { refusalOf } from "../domain/permissions";
import {
  LOGO_MEDIA_TYPES,
  MAX_ALT_TEXT,
  MAX_DISPLAY_NAME,
  MAX_LOGO_BYTES,
  MAX_LOGO_PIXELS,
  ProductChangeSchema,
  type ProductSettings,
} from "./presentation";
import { changeProblem, changeProduct, readProduct, readProductSettings } from "./product-store";
import { DEFAULT_ACCENT_COLOUR } from "./render-input";
import {
  RewardsCategoriesForm,
  RewardsCategoriesTable,
  rewardsChangeFromForm,
} from "./rewards-categories-form";

/** The logo field's label, with the limits presentation.ts checks. */
const LOGO_LABEL =
  `New logo (PNG or JPEG, at most ${MAX_LOGO_BYTES / 1024} KiB and ` +
  `${MAX_LOGO_PIXELS} px a side)`;

/** Integer minor units as a form field shows them ("" when not set). */
const shown = (value: number | undefined) => (value === undefined ? "" : String(value));

/** The product's disclosed terms, read-only. */
function TermsList({ product }: { product: ProductSettings }) {
  const late = product.latePayment;
  const minimum = product.minimumPayment;
  return (
    <>
      <dt>Billing-rights address</dt>
      <dd>{product.billingRightsAddress?.join(", ") ?? "Not set"}</dd>
      <dt>Late fee (minor units)</dt>
      <dd>{late?.late_fee ?? "Not set"}</dd>
      <dt>Penalty APR</dt>
      <dd>{late?.penalty_apr ? `${late.penalty_apr}%` : "Not set"}</dd>
      <dt>Minimum payment</dt>
      <dd>
        {minimum
          ? `${minimum.percent_of_balance}% of the balance` +
            `${minimum.includes_interest_and_fees ? ", interest and fees included" : " plus interest and fees"}` +
            `, at least ${minimum.minimum_amount} (minor units)`
          : "Not set"}
      </dd>
      <dt>Credit counselling number</dt>
      <dd>{product.creditCounselingPhone ?? "Not set"}</dd>
    </>
  );
}

/** The form's fields of the product's disclosed terms. */
function TermsFields({ product, id }: { product: ProductSettings; id: (n: string) => string }) {
  const late = product.latePayment;
  const minimum = product.minimumPayment;
  return (
    <fieldset class="stack">
      <legend>Terms the statement discloses (empty: the section is left out)</legend>
      <label for={id("address")}>
        Billing-rights address: where cardholders send billing-error notices (one line each, at most
        6)
      </label>
      <textarea id={id("address")} name="billing_rights_address" rows={4}>
        {product.billingRightsAddress?.join("\n") ?? ""}
      </textarea>
      <label for={id("late-fee")}>Late fee, at most (minor units: 4000 is $40.00)</label>
      <input
        id={id("late-fee")}
        name="late_fee"
        type="text"
        inputmode="numeric"
        value={shown(late?.late_fee)}
      />
      <label for={id("penalty-apr")}>Penalty APR (percent, such as 29.99)</label>
      <input
        id={id("penalty-apr")}
        name="penalty_apr"
        type="text"
        value={late?.penalty_apr ?? ""}
      />
      <label for={id("min-percent")}>Minimum payment: percent of the balance (such as 1)</label>
      <input
        id={id("min-percent")}
        name="minimum_percent"
        type="text"
        value={minimum?.percent_of_balance ?? ""}
      />
      <label>
        <input
          type="checkbox"
          name="minimum_includes_interest_and_fees"
          value="1"
          checked={minimum?.includes_interest_and_fees ?? false}
        />{" "}
        The percentage includes the month's interest and fees (otherwise they are added to it)
      </label>
      <label for={id("min-amount")}>Minimum payment: at least (minor units: 2500 is $25.00)</label>
      <input
        id={id("min-amount")}
        name="minimum_amount"
        type="text"
        inputmode="numeric"
        value={shown(minimum?.minimum_amount)}
      />
      <label for={id("phone")}>Credit counselling telephone number</label>
      <input
        id={id("phone")}
        name="credit_counseling_phone"
        type="text"
        value={product.creditCounselingPhone ?? ""}
      />
    </fieldset>
  );
}

const NOTICES: Record<string, string> = {
  saved: "Saved. Statements rendered from now on look this way.",
  rewards: "Saved. Cardholders' accounts now list these rewards categories.",
};

function ProductForm({ product, canChange }: { product: ProductSettings; canChange: boolean }) {
  const id = (name: string) => `${name}-${product.merchantKey}`;
  const logo = product.logoKey
    ? `${product.logoMediaType === "image/png" ? "PNG" : "JPEG"}, described as “${product.logoAltText}”`
    : "None";
  return (
    <section aria-labelledby={id("heading")}>
      <h2 id={id("heading")}>
        {product.name} <code class="muted">{product.merchantKey}</code>
      </h2>
      <p>
        {product.documents === "rendered"
          ? "The service renders each statement's PDF, as shown here."
          : "Statement PDFs are uploaded by the programme's operator; this look is used only " +
            "for statements the service renders (sandbox simulations)."}
      </p>
      {!canChange ? (
        <Presentation product={product} logo={logo} />
      ) : (
        <PresentationForm product={product} logo={logo} id={id} />
      )}
      {!canChange ? (
        <>
          <h3>Rewards categories</h3>
          <RewardsCategoriesTable product={product} />
        </>
      ) : (
        <RewardsCategoriesForm product={product} id={id} />
      )}
    </section>
  );
}

/** The product's look and terms as they stand, for a member who may not change them. */
function Presentation({ product, logo }: { product: ProductSettings; logo: string }) {
  return (
    <dl>
      <dt>Name on statements</dt>
      <dd>{product.displayName ?? product.name}</dd>
      <dt>Accent colour</dt>
      <dd>
        <code>{product.accentColour ?? DEFAULT_ACCENT_COLOUR}</code>
      </dd>
      <dt>Logo</dt>
      <dd>{logo}</dd>
      <TermsList product={product} />
    </dl>
  );
}

/** The form that changes the product's look and terms; `id` names its fields per product. */
function PresentationForm(props: {
  product: ProductSettings;
  logo: string;
  id: (name: string) => string;
}) {
  const { product, logo, id } = props;
  return (
    <form
      method="post"
      action={`/dashboard/documents/${product.merchantKey}`}
      enctype="multipart/form-data"
      class="stack"
    >
      <CsrfField />
      <label for={id("name")}>Name on statements</label>
      <input
        id={id("name")}
        name="display_name"
        type="text"
        maxlength={MAX_DISPLAY_NAME}
        value={product.displayName ?? ""}
        placeholder={product.name}
      />
      <label for={id("colour")}>Accent colour (#RRGGBB)</label>
      <input
        id={id("colour")}
        name="accent_colour"
        type="text"
        pattern="#[0-9A-Fa-f]{6}"
        value={product.accentColour ?? ""}
        placeholder={DEFAULT_ACCENT_COLOUR}
        aria-describedby={id("colour-hint")}
      />
      <span id={id("colour-hint")} class="muted">
        Darkened on the document where needed, so that text in it stays legible.
      </span>
      <p>Current logo: {logo}</p>
      <label for={id("logo")}>{LOGO_LABEL}</label>
      <input id={id("logo")} name="logo" type="file" accept={LOGO_MEDIA_TYPES.join(",")} />
      <label for={id("alt")}>What the logo shows (its alternative text)</label>
      <input
        id={id("alt")}
        name="logo_alt_text"
        type="text"
        maxlength={MAX_ALT_TEXT}
        value={product.logoAltText ?? ""}
      />
      {product.logoKey && (
        <label>
          <input type="checkbox" name="remove_logo" value="1" /> Remove the logo
        </label>
      )}
      <TermsFields product={product} id={id} />
      <div>
        <button type="submit">Save {product.name}</button>
      </div>
    </form>
  );
}

/** The form's change, as the operator API would receive it: only what differs from the product. */
async function changeFromForm(c: Parameters<typeof field>[0], product: ProductSettings) {
  const change: Record<string, unknown> = {};
  const name = (await field(c, "display_name")) || null;
  if (name !== product.displayName) change.display_name = name;
  const colour = (await field(c, "accent_colour")).toLowerCase() || null;
  if (colour !== product.accentColour) change.accent_colour = colour;
  const altText = await field(c, "logo_alt_text");
  const file = await formFile(c, "logo");
  if (file) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const data = btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));
    change.logo = { media_type: file.type, data, alt_text: altText };
  } else if (product.logoKey && (await field(c, "remove_logo")) === "1") {
    change.logo = null;
  } else if (product.logoKey && altText !== product.logoAltText) {
    change.logo_alt_text = altText;
  }
  Object.assign(change, await termsFromForm(c, product));
  const parsed = await ProductChangeSchema.safeParseAsync(change);
  if (!parsed.success) throw validationError(parsed.error, change);
  const problem = changeProblem(product, parsed.data);
  if (problem) throw invalidRequest([problem]);
  return parsed.data;
}

/** A whole number as sent, else the text itself (the schema then says what is wrong with it). */
const numberOf = (text: string): number | string =>
  /^[0-9]{1,15}$/.test(text) ? Number(text) : text;

/** The terms' fields that differ from the product's, as the operator API would receive them. */
async function termsFromForm(c: Parameters<typeof field>[0], product: ProductSettings) {
  const change: Record<string, unknown> = {};
  const differs = (value: unknown, was: unknown) => JSON.stringify(value) !== JSON.stringify(was);
  const lines = (await field(c, "billing_rights_address"))
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const address = lines.length > 0 ? lines : null;
  if (differs(address, product.billingRightsAddress)) change.billing_rights_address = address;

  const late: Record<string, unknown> = {};
  const fee = (await field(c, "late_fee")).trim();
  if (fee) late.late_fee = numberOf(fee);
  const penalty = (await field(c, "penalty_apr")).trim();
  if (penalty) late.penalty_apr = penalty;
  const latePayment = Object.keys(late).length > 0 ? late : null;
  if (differs(latePayment, product.latePayment)) change.late_payment = latePayment;

  const percent = (await field(c, "minimum_percent")).trim();
  const least = (await field(c, "minimum_amount")).trim();
  const minimum =
    percent || least
      ? {
          percent_of_balance: percent,
          includes_interest_and_fees:
            (await field(c, "minimum_includes_interest_and_fees")) === "1",
          minimum_amount: numberOf(least),
        }
      : null;
  if (differs(minimum, product.minimumPayment)) change.minimum_payment = minimum;

  const phone = (await field(c, "credit_counseling_phone")).trim() || null;
  if (phone !== product.creditCounselingPhone) change.credit_counseling_phone = phone;
  return change;
}

const routes = new Hono<AppEnv>()
  .get("/documents", allow("documents.view"), async (c) => {
    const { user } = c.var.session;
    const products = await readProductSettings(c.get("db"), user.partnerId);
    const canChange = may(c, "documents.change", "production");
    return c.render(
      <>
        <p>How your card products present the statement PDFs your cardholders read.</p>
        {!canChange && (
          <p class="muted">{refusalOf(user.role, "documents.change", "production")}</p>
        )}
        {products.length === 0 && <p>No card product yet.</p>}
        {products.map((product) => (
          <ProductForm product={product} canChange={canChange} />
        ))}
      </>,
      {
        title: "Statement documents",
        section: "documents",
        notice: NOTICES[c.req.query("notice") ?? ""],
      },
    );
  })

  .post("/documents/:merchant_key", allow("documents.change"), async (c) => {
    const { user } = c.var.session;
    const db = c.get("db");
    const product = await readProduct(db, c.req.param("merchant_key"));
    if (!product || product.partnerId !== user.partnerId) {
      throw new ApiError("NOT_FOUND_ERROR", "There is no such product.");
    }
    const change = await changeFromForm(c, product);
    const deps = { db, documents: c.get("documents") };
    if (!(await changeProduct(deps, product, change, userActor(c, user), c.get("now")()))) {
      throw new ApiError("NOT_FOUND_ERROR", "There is no such product.");
    }
    return c.redirect("/dashboard/documents?notice=saved", 303);
  })

  // The product's rewards categories, replaced whole, checked and audited as the operator's are.
  .post("/documents/:merchant_key/rewards", allow("documents.change"), async (c) => {
    const { user } = c.var.session;
    const db = c.get("db");
    const product = await readProduct(db, c.req.param("merchant_key"));
    if (!product || product.partnerId !== user.partnerId) {
      throw new ApiError("NOT_FOUND_ERROR", "There is no such product.");
    }
    const change = await rewardsChangeFromForm(c);
    const deps = { db, documents: c.get("documents") };
    if (!(await changeProduct(deps, product, change, userActor(c, user), c.get("now")()))) {
      throw new ApiError("NOT_FOUND_ERROR", "There is no such product.");
    }
    return c.redirect("/dashboard/documents?notice=rewards", 303);
  });

export const documentsPage: DashboardPage = {
  routes,
  nav: {
    section: "documents",
    label: "Documents",
    action: "documents.view",
    perEnvironment: false,
  },
};
