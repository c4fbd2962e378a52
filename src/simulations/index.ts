// Sandbox simulations: the /v2 simulation routes and the dashboard's sandbox page.
export * from "./routes";
export { sandboxPage } from "./sandbox-page";
