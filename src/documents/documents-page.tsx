// /dashboard/documents: how each of the partner's products presents its statement documents (the
// name they show, the accent colour, the logo and its alternative text), and whether the service
// renders them or the operator uploads them. Admins change the presentation, checked by the
// operator API's own rules (presentation.ts) and audited; everyone sees it.
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

/** The logo field's label, with the limits presentation.ts checks. */
const LOGO_LABEL =
  `New logo (PNG or JPEG, at most ${MAX_LOGO_BYTES / 1024} KiB and ` +
  `${MAX_LOGO_PIXELS} px a side)`;

const NOTICES: Record<string, string> = {
  saved: "Saved. Statements rendered from now on look this way.",
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
        <dl>
          <dt>Name on statements</dt>
          <dd>{product.displayName ?? product.name}</dd>
          <dt>Accent colour</dt>
          <dd>
            <code>{product.accentColour ?? DEFAULT_ACCENT_COLOUR}</code>
          </dd>
          <dt>Logo</dt>
          <dd>{logo}</dd>
        </dl>
      ) : (
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
          <div>
            <button type="submit">Save {product.name}</button>
          </div>
        </form>
      )}
    </section>
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
  const parsed = await ProductChangeSchema.safeParseAsync(change);
  if (!parsed.success) throw validationError(parsed.error, change);
  const problem = changeProblem(product, parsed.data);
  if (problem) throw invalidRequest([problem]);
  return parsed.data;
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
