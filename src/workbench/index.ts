// The dashboard's workbench: the overview, and the customers and accounts as the API serves them.
export { accountPage } from "./account-page";
export { customersPage } from "./customers-page";
export { overviewPage } from "./overview-page";
export { statementPage } from "./statement-page";
