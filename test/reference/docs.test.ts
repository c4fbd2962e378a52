// The public documentation: the changelog, the per-version OpenAPI documents and the interactive
// reference (what the API answers is held against them in contract.test.ts).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bundle } from "../../src/bundle";
import { renderInlineMarkdown, renderMarkdown } from "../../src/reference/markdown";
import { DOCS_CSP } from "../../src/reference/routes";
import { ROUTES } from "../../src/routes";
import { expectJson } from "../support/api";
import { ALL_VERSIONS, OLDEST } from "../support/bundle-versions";
import type { Json } from "../support/json";
import {
  ENVELOPE,
  FLAT_ERRORS,
  WITH_PDF_OBJECT,
  WITH_PDF_URL,
} from "../support/reference-versions";
import { request } from "../support/worker";

async function documentOf(version: string): Promise<Json> {
  return expectJson(await request(`/openapi/${version}.json`), 200);
}

const STATEMENTS = "/v2/customers/{customer_id}/accounts/{account_id}/statements";

describe("GET /changelog", () => {
  it("lists every version newest first, with its changes, without a key", async () => {
    const res = await request("/changelog");
    expect(res.headers.get("x-service-version")).toBeNull();
    const body = await expectJson<Json>(res, 200);
    expect(body.versions.map((v: Json) => v.version)).toEqual(ALL_VERSIONS);
    for (const [i, version] of bundle.versions.entries()) {
      expect(body.versions[i]).toEqual({
        version: version.id,
        released: version.released,
        environments: version.released ? ["sandbox", "production"] : ["sandbox"],
        summary: version.summary,
        deprecated: version.deprecated?.date,
        sunset: version.deprecated?.sunset,
        reference: `/openapi/${version.id}.json`,
        changes: version.changes.map((change) => ({
          name: change.name,
          description: change.description,
          resources: [...bundle.touchedBy(change)],
          behaviour: change.sideEffects === true,
        })),
      });
    }
    const changes = body.versions.flatMap((v: Json) => v.changes);
    expect(changes).toContainEqual({
      name: "replacePdfUrlWithPdfObject",
      description: expect.stringContaining("`pdf_url`"),
      resources: ["Statement", "StatementList", "Event", "EventList"],
      behaviour: false,
    });
    expect(changes.map((c: Json) => c.name)).toContain("useApiErrorEnvelopeForAllErrors");
  });
});

describe("GET /docs/changelog", () => {
  it("renders every version and change as a page", async () => {
    const res = await request("/docs/changelog");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const page = await res.text();
    for (const version of ALL_VERSIONS) expect(page).toContain(`id="v-${version}"`);
    expect(page).toContain("<code>replacePdfUrlWithPdfObject</code>");
    expect(page).toContain("<code>pdf_url</code>");
    expect(page).toContain("sandbox only");
  });
});

describe("GET /openapi/{version}.json", () => {
  it("serves a 3.1 document for every version, without a key", async () => {
    for (const version of ALL_VERSIONS) {
      const doc = await documentOf(version);
      expect(doc.openapi).toBe("3.1.0");
      expect(doc.info.version).toBe(version);
      expect(doc.components.securitySchemes).toEqual({
        basicAuth: expect.objectContaining({ type: "http", scheme: "basic" }),
        bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer" }),
      });
      expect(doc.security).toEqual([{ basicAuth: [] }, { bearerAuth: [] }]);
      expect(doc.components.parameters.Version).toMatchObject({
        name: "x-service-version",
        in: "header",
      });
      expect(doc.components.parameters.MerchantKey).toMatchObject({
        name: "x-service-merchant-key",
        in: "header",
      });
    }
  });

  it("leaves the sandbox's simulations out of every production reference, and says so in sandbox's", async () => {
    const sandboxOnly = ROUTES.filter((r) => !r.environments.includes("production"));
    expect(sandboxOnly.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v2/simulations/customers",
      "POST /v2/simulations/statements",
      "POST /v2/simulations/payment_methods",
    ]);
    for (const version of ALL_VERSIONS) {
      const sandbox = await documentOf(version);
      for (const route of sandboxOnly) {
        const op = sandbox.paths[route.path]?.post;
        expect(op?.tags).toEqual(["Sandbox simulations"]);
        expect(op?.description).toContain("Sandbox keys only");
      }
      const production = await request(`/openapi/${version}.json?environment=production`);
      if (!bundle.isSupported(version, "production")) {
        expect(production.status).toBe(404);
        continue;
      }
      const doc = await expectJson<Json>(production, 200);
      expect(Object.keys(doc.paths).filter((p) => p.startsWith("/v2/simulations"))).toEqual([]);
      expect(doc.tags.map((t: Json) => t.name)).not.toContain("Sandbox simulations");
      expect(doc.components.schemas.SimulateCustomerRequest).toBeUndefined();
      expect(doc.components.schemas.SimulatedCustomer).toBeUndefined();
      expect(doc.info.description).toContain("This reference is for production keys");
      const operations = Object.values<Json>(doc.paths).flatMap((ops) => Object.values(ops));
      expect(operations).toHaveLength(ROUTES.length - sandboxOnly.length);
    }
    const unknown = await request(`/openapi/${OLDEST}.json?environment=staging`);
    expect(unknown.status).toBe(404);
  });

  it("shows a simulated customer with Customer's fields in every version, and its accounts", async () => {
    for (const version of ALL_VERSIONS) {
      const { schemas } = (await documentOf(version)).components;
      const { accounts, ...fields } = schemas.SimulatedCustomer.properties;
      expect(fields).toEqual(schemas.Customer.properties);
      expect(accounts.items).toEqual({ $ref: "#/components/schemas/Account" });
      expect(schemas.SimulatedCustomer.required).toEqual([
        ...(schemas.Customer.required ?? []),
        "accounts",
      ]);
    }
  });

  it("shows each environment's reference at /docs, with a picker", async () => {
    const production = await request(`/docs?version=${OLDEST}&environment=production`);
    expect(production.status).toBe(200);
    const page = await production.text();
    expect(page).toContain(`data-openapi-url="/openapi/${OLDEST}.json?environment=production"`);
    expect(page).toContain('<option value="production" selected>');
    expect(page).not.toContain("/v2/simulations");
    const sandbox = await (await request(`/docs?version=${OLDEST}`)).text();
    expect(sandbox).toContain("/v2/simulations/statements");
    const latest = bundle.versions.find((v) => !v.released)?.id as string;
    const refused = await request(`/docs?version=${latest}&environment=production`);
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain("is for sandbox keys only");
  });

  it("documents every /v2 route of the route list with its scope and responses", async () => {
    const doc = await documentOf(OLDEST);
    const operations = Object.values<Json>(doc.paths).flatMap((ops) => Object.values<Json>(ops));
    expect(operations).toHaveLength(ROUTES.length);
    const ids = new Set(operations.map((op) => op.operationId));
    expect(ids.size).toBe(ROUTES.length);
    for (const route of ROUTES) {
      const path = route.path.replace(/:(\w+)/g, "{$1}");
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${path}`).toBeDefined();
      expect(op["x-required-scope"]).toBe(route.scope);
      expect(Object.keys(op.responses)).toContain("401");
      expect("403" in op.responses).toBe(route.scope !== null);
      const merchantKey = op.parameters.some(
        (p: Json) => p.$ref === "#/components/parameters/MerchantKey",
      );
      expect(merchantKey).toBe(route.customerScoped);
      if (route.implemented) {
        const success = Object.keys(op.responses).find((s) => s.startsWith("2")) as string;
        // A 204 has no body; every other success names its schema.
        if (success !== "204") {
          expect(op.responses[success].content["application/json"].schema.$ref).toMatch(
            /^#\/components\/schemas\//,
          );
        }
      } else {
        expect(op.responses.default).toEqual({ $ref: "#/components/responses/NotImplemented" });
      }
    }
  });

  it("documents the statements listing in full", async () => {
    const doc = await documentOf(WITH_PDF_URL[0] as string);
    const op = doc.paths[STATEMENTS].get;
    expect(op.parameters.map((p: Json) => p.name ?? p.$ref)).toEqual([
      "customer_id",
      "account_id",
      "limit",
      "starting_after",
      "period_end_date_gte",
      "period_end_date_lt",
      "#/components/parameters/Version",
      "#/components/parameters/MerchantKey",
    ]);
    expect(op.parameters[2].schema).toEqual({
      type: "integer",
      minimum: 1,
      maximum: 100,
      default: 10,
    });
    expect(Object.keys(op.responses)).toEqual([
      "200",
      "400",
      "401",
      "403",
      "404",
      "429",
      "500",
      "503",
    ]);
    expect(op.responses["200"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/StatementList",
    });
    const list = doc.components.schemas.StatementList;
    expect(list.required).toEqual(["data", "has_more"]);
    const statement = doc.components.schemas.Statement;
    expect(statement.required).toEqual(["statement_id", "customer_id", "account_id", "as_of"]);
    expect(Object.keys(statement.properties)).toEqual([
      "statement_id",
      "customer_id",
      "account_id",
      "as_of",
      "period_start_date",
      "period_end_date",
      "due_date",
      "pdf_url",
      "currency",
      "statement_balance",
      "minimum_due",
      "previous_balance",
      "purchases",
      "payments",
      "credits",
      "refunds",
      "interest",
      "fees",
      "overdue_amount",
      // New optional fields ship to every version (SPEC, Versioning 2).
      "interest_rates",
      "year_to_date",
      "restated_by",
      "restates",
      "rewards",
    ]);
  });

  it("shows the pdf object only from the version that introduced it", async () => {
    for (const version of WITH_PDF_OBJECT) {
      const props = (await documentOf(version)).components.schemas.Statement.properties;
      expect(props.pdf.properties).toEqual({
        url: expect.objectContaining({ format: "uri" }),
        expires_at: expect.objectContaining({ format: "date-time" }),
      });
      expect(props.pdf_url).toBeUndefined();
    }
    for (const version of WITH_PDF_URL) {
      const props = (await documentOf(version)).components.schemas.Statement.properties;
      expect(props.pdf).toBeUndefined();
      expect(props.pdf_url).toMatchObject({ type: "string", format: "uri" });
    }
  });

  it("documents every error in the shape of its version", async () => {
    for (const version of FLAT_ERRORS) {
      const { schemas } = (await documentOf(version)).components;
      expect(schemas.InvalidRequestError.required).toEqual([
        "path",
        "details",
        "error",
        "status",
        "timestamp",
      ]);
      expect(schemas.CustomerNotFoundError.required).toEqual(["type", "message"]);
      expect(schemas.CustomerNotFoundError.properties.type.enum).toEqual([
        "CUSTOMER_NOT_FOUND_ERROR",
        "ACCOUNT_NOT_FOUND_ERROR",
      ]);
      expect(schemas.ApiError.properties.error.properties.type.enum).not.toContain(
        "INVALID_REQUEST_ERROR",
      );
    }
    const { schemas, responses } = (await documentOf(ENVELOPE)).components;
    for (const name of ["ApiError", "InvalidRequestError", "CustomerNotFoundError"]) {
      expect(schemas[name].required, name).toEqual(["error"]);
    }
    expect(schemas.InvalidRequestError.properties.error.properties.type.enum).toEqual([
      "INVALID_REQUEST_ERROR",
    ]);
    expect(responses.InvalidRequest.content["application/json"].schema).toEqual({
      anyOf: [
        { $ref: "#/components/schemas/InvalidRequestError" },
        { $ref: "#/components/schemas/ApiError" },
      ],
    });
    expect(responses.Unauthorized.headers["x-service-version"]).toBeUndefined();
  });

  it("answers 404 JSON for a version that does not exist", async () => {
    const unreleased = ALL_VERSIONS[0] as string;
    for (const file of [
      "1999-12-31.json",
      unreleased,
      `${unreleased.toUpperCase()}X.json`,
      "%3Cscript%3E.json",
    ]) {
      const res = await request(`/openapi/${file}`);
      const body = await expectJson<Json>(res, 404);
      expect(body.error.type).toBe("NOT_FOUND_ERROR");
      expect(body.error.message).toContain(`${OLDEST}.json`);
    }
  });
});

describe("GET /docs", () => {
  it("serves the reference from this origin, on the newest released version", async () => {
    const res = await request("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toBe(DOCS_CSP);
    const scripts = /script-src ([^;]*)/.exec(DOCS_CSP)?.[1];
    expect(scripts).toBe("'self'");
    const page = await res.text();
    expect([...page.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual([
      '<script src="/docs/vendor/scalar-api-reference.js" defer>',
      '<script src="/docs/docs.js" defer>',
    ]);
    expect(page).not.toMatch(/\son[a-z]+=/);
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(page).toContain(`data-openapi-url="/openapi/${bundle.newestReleased}.json"`);
    expect(page).toContain('<select id="version-picker" name="version"');
    for (const version of ALL_VERSIONS) expect(page).toContain(`<option value="${version}"`);
    expect(page).toContain(`<option value="${bundle.newestReleased}" selected>`);
  });

  it("has the interactive reference and the pages' script in the static assets", async () => {
    for (const [path, text] of [
      ["/docs/vendor/scalar-api-reference.js", "createApiReference"],
      ["/docs/docs.js", "createApiReference"],
    ]) {
      const res = await env.ASSETS.fetch(new Request(`http://api.test${path}`));
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/javascript/);
      expect(await res.text()).toContain(text);
    }
  });

  it("lists each version's operations in plain HTML, in that version's shapes", async () => {
    for (const version of ALL_VERSIONS) {
      const page = await (await request(`/docs?version=${version}`)).text();
      expect(page).toContain('<section class="operation" id="listAccountStatements">');
      const pdfUrl = WITH_PDF_URL.includes(version);
      expect(page.includes("<code>data[].pdf_url</code>"), version).toBe(pdfUrl);
      expect(page.includes("<code>data[].pdf.expires_at</code>"), version).toBe(!pdfUrl);
      expect(page).toContain(`data-openapi-url="/openapi/${version}.json"`);
    }
  });

  it("shows every parameter, header, security scheme and error of each operation", async () => {
    const doc = await documentOf(bundle.newestReleased);
    const page = await (await request(`/docs?version=${bundle.newestReleased}`)).text();
    const section = (id: string) => {
      const start = page.indexOf(`<section class="operation" id="${id}">`);
      return page.slice(start, page.indexOf("</section>", start));
    };
    for (const [name, scheme] of Object.entries<Json>(doc.components.securitySchemes)) {
      expect(page).toContain(`<dt id="security-${name}"><code>${name}</code>: ${scheme.type}`);
    }
    for (const [path, operations] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(operations)) {
        const html = section(op.operationId);
        expect(html, `${method} ${path}`).toContain(`<code>${path}</code>`);
        expect(html).toContain('href="#security-basicAuth"');
        for (const p of op.parameters) {
          const parameter = p.$ref ? doc.components.parameters[p.$ref.split("/").pop()] : p;
          expect(html, `${op.operationId} ${parameter.name}`).toContain(
            `<code>${parameter.name}</code>`,
          );
        }
        for (const [status, r] of Object.entries<Json>(op.responses)) {
          const response = r.$ref ? doc.components.responses[r.$ref.split("/").pop()] : r;
          expect(html, `${op.operationId} ${status}`).toContain(`<strong>${status}</strong>`);
          for (const header of Object.keys(response.headers ?? {})) {
            expect(html, `${op.operationId} ${status} ${header}`).toContain(
              `<code>${header}</code>`,
            );
          }
        }
      }
    }
    // Markdown is rendered: the version's description links to the changelog.
    expect(page).toContain('<a href="/docs/changelog">/docs/changelog</a>');
    expect(page).not.toContain("**");
  });

  it("renders Markdown without letting HTML or script links through", async () => {
    const out = String(
      renderMarkdown(
        'Text <img src=x onerror="alert(1)"> [a](javascript:alert(1)) [b](/docs) `<code>`',
      ),
    );
    expect(out).not.toContain("<img");
    expect(out).toContain("&lt;img src=x");
    expect(out).not.toContain("javascript:");
    expect(out).toContain('<a href="/docs">b</a>');
    expect(out).toContain("<code>&lt;code&gt;</code>");
    expect(String(renderInlineMarkdown("**bold** <b>"))).toBe("<strong>bold</strong> &lt;b&gt;");
  });

  it("escapes a version it does not know, and answers 404", async () => {
    for (const asked of ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>']) {
      const res = await request(`/docs?version=${encodeURIComponent(asked)}`);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-security-policy")).toBe(DOCS_CSP);
      const page = await res.text();
      expect(page).not.toContain("<script>alert(1)");
      expect(page).not.toContain("<img src=x");
      expect(page).toContain("&lt;");
      expect(page).toContain('<select id="version-picker"');
    }
  });
});
