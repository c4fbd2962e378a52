// Sandbox simulations: the /v2 simulation routes and the dashboard's sandbox page.

export * from "./api-schemas";
export { sandboxExpired } from "./maintenance";
export { limitSimulations, RESET_AGES_HOURS, SANDBOX_LIMITS } from "./quotas";
export * from "./routes";
export { sandboxPage } from "./sandbox-page";
