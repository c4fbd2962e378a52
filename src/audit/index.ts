// The audit log's dashboard page (the log itself is written by every change: db/audit.ts).
export { auditPage } from "./audit-page";
