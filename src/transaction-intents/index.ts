// Transaction intents: the /v2 routes, and the customer's intents the data browser shows.
export * from "./api-schemas";
export { type IntentRow, intentPage } from "./intent-store";
export * from "./routes";
