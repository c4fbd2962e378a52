// Routes the service names but does not serve yet: each answers 501 (see `notImplemented`).
export * from "./order-events";
export * from "./orders";
export * from "./rewards-categories";
export * from "./transaction-intents";
