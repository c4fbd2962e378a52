// POST /v2/simulations/customers and POST /v2/simulations/statements: the sandbox makes its own
// data. Sandbox keys only: for a production key these routes do not exist (404, as for an unknown
// route, and absent from the production reference). Each counts against the partner's simulation
// rate limit, and what it makes against the sandbox's quotas (quotas.ts).
import { readScope } from "../app/pipeline";
import { route } from "../app/route";
import { SimulatedCustomer } from "../customers";
import { toAccount } from "../domain/account";
import { toCustomer } from "../domain/customer";
import { toStatement } from "../domain/statement";
import { Statement } from "../statements";
import { SimulateCustomerRequest, SimulateStatementRequest } from "./api-schemas";
import { limitSimulations } from "./quotas";
import {
  closeSandboxCycle,
  createdStatement,
  createSandboxCustomer,
  simulationDeps,
} from "./simulate";

const SANDBOX = ["sandbox"] as const;

export const simulateCustomer = route({
  method: "POST",
  path: "/v2/simulations/customers",
  summary: "Create a sandbox customer",
  operationId: "createSandboxCustomer",
  tag: "Sandbox simulations",
  errors: [],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  environments: SANDBOX,
  body: { schema: SimulateCustomerRequest, required: false },
  response: { status: 201, schema: SimulatedCustomer },
  async handler(c, { body, reply }) {
    await limitSimulations(c, c.get("caller").partnerId);
    const deps = simulationDeps(c);
    const { customer, accounts } = await createSandboxCustomer(deps, readScope(c), body);
    const asOf = deps.now.toISOString();
    // As retrieving the customer shows it, with its accounts as the accounts list shows them.
    const revealAuthorizedUsers = c.get("caller").scopes.includes("AUTHORIZED_USER_READ");
    return reply({
      ...toCustomer(customer, { revealAuthorizedUsers }),
      accounts: accounts.map((account) => toAccount(account, asOf)),
    });
  },
});

export const simulateStatement = route({
  method: "POST",
  path: "/v2/simulations/statements",
  summary: "Close a sandbox billing cycle",
  operationId: "closeSandboxBillingCycle",
  tag: "Sandbox simulations",
  errors: [{ status: 404, types: ["CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR"] }],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  environments: SANDBOX,
  body: { schema: SimulateStatementRequest, required: true },
  response: { status: 201, schema: Statement },
  async handler(c, { body, reply }) {
    await limitSimulations(c, c.get("caller").partnerId);
    const deps = simulationDeps(c);
    const statement = createdStatement(await closeSandboxCycle(deps, readScope(c), body), body);
    // As the statements list shows it; its document follows once rendered.
    return reply(toStatement(statement, body.customer_id, deps.now.toISOString(), undefined));
  },
});
