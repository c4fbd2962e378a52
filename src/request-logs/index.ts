// The request log: every partner request recorded after its response, written by the queue's
// consumer, read by the dashboard's log pages and purged by its maintenance step.
export { consumeRequestLogs, isRequestLogQueue } from "./consumer";
export { logsLink } from "./log-filters";
export { type ErrorGroup, readUsage, type VersionInUse } from "./log-store";
export { logsPage } from "./logs-page";
export { requestLogsPurged } from "./maintenance";
export { createRequestLogSender, requestRecorder } from "./recorder";
