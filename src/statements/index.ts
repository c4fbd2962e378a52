// Statements: the /v2 statements list, its page reads and the canonical page built from them.
export * from "./routes";
export { buildStatementPage } from "./statement-page";
export { type AccountOwner, readStatementPage } from "./statement-pages";
