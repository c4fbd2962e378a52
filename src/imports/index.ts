// The operator import: one atomic request that loads partners, customers, accounts and statements.

export { applyImport, type ReviewedImport, reviewImport } from "./import";
export { placeImport } from "./import-placement";
export { importOperatorRoutes } from "./operator-routes";
