// GET /v2/customers, GET /v2/customers/{customer_id}, POST /v2/customers/{customer_id}/link.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { customerNotFound } from "../app/errors";
import { respond } from "../app/respond";
import { findCustomer, linkCustomer, readCustomerPage, readScopeOf } from "../db/customer-queries";
import { toCustomer } from "../domain/customer";
import { idPage, parseIdPage } from "./list-params";
import { readRequest } from "./request-body";

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
    const body = await readRequest(c, "CustomerLinkRequest");
    const partnerCustomerId = body.partner_customer_id;
    const caller = c.get("caller");
    const scope = readScopeOf(caller, c.get("merchantKey"));
    const row = await linkCustomer(c.get("db"), scope, customerId, partnerCustomerId);
    if (!row) throw customerNotFound(customerId);
    const revealAuthorizedUsers = caller.scopes.includes("AUTHORIZED_USER_READ");
    return respond(c, "Customer", toCustomer(row, { revealAuthorizedUsers }));
  });
