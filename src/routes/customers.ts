// GET /v2/customers, GET /v2/customers/{customer_id}, POST /v2/customers/{customer_id}/link.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { customerNotFound, invalidRequest } from "../app/errors";
import { respond } from "../app/respond";
import { findCustomer, linkCustomer, readCustomerPage, readScopeOf } from "../db/customer-queries";
import { partnerCustomerIdProblem, toCustomer } from "../domain/customer";
import { readJsonBody } from "./json-body";
import { idPage, parseIdPage } from "./list-params";

/** The link body: exactly `{"partner_customer_id": "<1..255 characters>"}`. */
function parseLinkBody(body: unknown): string {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidRequest(['The body must be a JSON object: {"partner_customer_id": "..."}']);
  }
  const unknown = Object.keys(body).filter((field) => field !== "partner_customer_id");
  if (unknown.length > 0) {
    throw invalidRequest(
      unknown.map(
        (field) => `${JSON.stringify(field.slice(0, 64))} is not a field of this request`,
      ),
      unknown[0]?.slice(0, 64),
    );
  }
  const value = (body as { partner_customer_id?: unknown }).partner_customer_id;
  const problem =
    value === undefined ? "partner_customer_id is required" : partnerCustomerIdProblem(value);
  if (problem !== null) throw invalidRequest([problem], "partner_customer_id");
  return value as string;
}

export const customerRoutes = new Hono<AppEnv>()
  .get("/v2/customers", async (c) => {
    const { limit, after } = parseIdPage((name) => c.req.queries(name));
    const scope = readScopeOf(c.get("caller"), c.get("merchantKey"));
    const rows = await readCustomerPage(c.get("db"), scope, after, limit);
    // authorized_users is granted on retrieve customer only, never in bulk.
    const page = idPage(rows, limit, (row) => toCustomer(row, { revealAuthorizedUsers: false }));
    return respond(c, "CustomerList", page);
  })
  .get("/v2/customers/:customer_id", async (c) => {
    const customerId = c.req.param("customer_id");
    const caller = c.get("caller");
    const row = await findCustomer(
      c.get("db"),
      readScopeOf(caller, c.get("merchantKey")),
      customerId,
    );
    if (!row) throw customerNotFound(customerId);
    const revealAuthorizedUsers = caller.scopes.includes("AUTHORIZED_USER_READ");
    return respond(c, "Customer", toCustomer(row, { revealAuthorizedUsers }));
  })
  .post("/v2/customers/:customer_id/link", async (c) => {
    const customerId = c.req.param("customer_id");
    const partnerCustomerId = parseLinkBody(await readJsonBody(c.req.raw));
    const caller = c.get("caller");
    const scope = readScopeOf(caller, c.get("merchantKey"));
    const row = await linkCustomer(c.get("db"), scope, customerId, partnerCustomerId);
    if (!row) throw customerNotFound(customerId);
    const revealAuthorizedUsers = caller.scopes.includes("AUTHORIZED_USER_READ");
    return respond(c, "Customer", toCustomer(row, { revealAuthorizedUsers }));
  });
