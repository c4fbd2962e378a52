// The audit log's dashboard page and the operator's read of it (the log itself is written by
// every change: db/audit.ts).
export { auditPage } from "./audit-page";
export { auditOperatorRoutes } from "./operator-routes";
