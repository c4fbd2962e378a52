// Statements: the /v2 statements list, one statement and its line items, their reads and the
// canonical bodies built from them.

export { readBinding, requireAccountOwner } from "./account-owner";
export * from "./api-schemas";
export { lineItemInserts, lineItemsDigest } from "./line-item-writes";
export * from "./routes";
export {
  STATEMENT_COLUMNS,
  type StoredStatement,
  sameFigures,
  statementRecordOf,
  statementRow,
} from "./statement-fields";
export { buildStatement, buildStatementPage } from "./statement-page";
export { type AccountOwner, OWNER, ownerOf, readStatementPage } from "./statement-pages";
export { readStatementWithLineItems } from "./statement-reads";
export * from "./statement-routes";
export * from "./statement-writes";
