// The dashboard's data browser: customers, accounts and statements as the API serves them.
export { accountPage } from "./account-page";
export { customersPage } from "./customers-page";
export { ordersPage } from "./orders-page";
export { statementPage } from "./statement-page";
