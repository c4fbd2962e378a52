// Accounts: the /v2 account routes and the account reads other features page through.

export { findPartnerAccount, readAccountPage } from "./account-store";
export * from "./api-schemas";
export * from "./routes";
