// API keys: the /v2 key route, the dashboard's key pages, the operator's key routes, and the key
// list the Overview and the request log read.

export * from "./api-schemas";
export { keyRevokePage, keyRollPage } from "./key-actions";
export { listApiKeys } from "./key-store";
export { keysPage } from "./keys-page";
export { keyOperatorRoutes } from "./operator-routes";
export * from "./routes";
