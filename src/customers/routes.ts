// GET /v2/customers, GET /v2/customers/{customer_id}, POST /v2/customers/{customer_id}/link.
import { customerNotFound } from "../app/errors";
import { readScope } from "../app/pipeline";
import { idPage, idPageQuery } from "../app/query";
import { route } from "../app/route";
import { findCustomer, linkCustomer, readCustomerPage } from "../db/customers";
import { toCustomer } from "../domain/customer";
import { Customer, CustomerLinkRequest, CustomerList } from "./api-schemas";

export const listCustomers = route({
  method: "GET",
  path: "/v2/customers",
  summary: "List customers",
  operationId: "listCustomers",
  tag: "Customers",
  errors: [],
  scope: null,
  customerScoped: true,
  query: idPageQuery,
  response: { status: 200, schema: CustomerList },
  async handler(c, { query: { limit, after }, reply }) {
    const scope = readScope(c);
    const rows = await readCustomerPage(c.get("db"), scope, after, limit);
    // authorized_users is granted on retrieve customer only, never in bulk.
    return reply(idPage(rows, limit, (row) => toCustomer(row, { revealAuthorizedUsers: false })));
  },
});

export const retrieveCustomer = route({
  method: "GET",
  path: "/v2/customers/:customer_id",
  summary: "Retrieve a customer",
  operationId: "retrieveCustomer",
  tag: "Customers",
  errors: [{ status: 404, types: ["CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR"] }],
  scope: null,
  customerScoped: true,
  response: { status: 200, schema: Customer },
  async handler(c, { reply }) {
    const customerId = c.req.param("customer_id");
    const caller = c.get("caller");
    const scope = readScope(c);
    const row = await findCustomer(c.get("db"), scope, customerId);
    if (!row) throw customerNotFound(customerId);
    const revealAuthorizedUsers = caller.scopes.includes("AUTHORIZED_USER_READ");
    return reply(toCustomer(row, { revealAuthorizedUsers }));
  },
});

export const linkPartnerCustomer = route({
  method: "POST",
  path: "/v2/customers/:customer_id/link",
  summary: "Link a partner customer id",
  operationId: "linkPartnerCustomerId",
  tag: "Customers",
  errors: [{ status: 404, types: ["CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR"] }],
  scope: null,
  customerScoped: true,
  body: { schema: CustomerLinkRequest, required: true },
  response: { status: 200, schema: Customer },
  async handler(c, { body, reply }) {
    const customerId = c.req.param("customer_id");
    const caller = c.get("caller");
    const scope = readScope(c);
    const row = await linkCustomer(c.get("db"), scope, customerId, body.partner_customer_id);
    if (!row) throw customerNotFound(customerId);
    const revealAuthorizedUsers = caller.scopes.includes("AUTHORIZED_USER_READ");
    return reply(toCustomer(row, { revealAuthorizedUsers }));
  },
});
