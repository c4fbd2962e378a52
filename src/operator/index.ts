// The operator API under /operator/v1.
export { operatorRoutes } from "./routes";
