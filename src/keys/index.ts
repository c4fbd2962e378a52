// API keys: the /v2 key route, the dashboard's key pages, and the key storage the operator and
// the workbench use.

export * from "./api-schemas";
export { keyRevokePage, keyRollPage } from "./key-actions";
export { revokeApiKey } from "./key-lifecycle";
export { createApiKey, keyOwner, listApiKeys } from "./key-store";
export { keysPage } from "./keys-page";
export * from "./routes";
