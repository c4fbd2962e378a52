// The operator API: every feature's /operator/v1 routes, one line each, in the order
// docs/operator-api.md walks through them. Each feature declares its operator routes beside their
// handlers, in its operator-routes.ts; the app mounts this list behind the operator's token
// (`operatorApi`, app/operator-api.ts), and any path none of them serves is answered 404.
import { auditOperatorRoutes } from "./audit";
import { deadLetterOperatorRoutes } from "./dead-letters";
import { documentOperatorRoutes } from "./documents";
import { hiddenStatementOperatorRoutes } from "./hidden-statements";
import { importOperatorRoutes } from "./imports";
import { keyOperatorRoutes } from "./keys";
import { outboxOperatorRoutes } from "./mail/outbox-routes";
import { partnerMoveOperatorRoutes } from "./partner-moves";
import { partnerOperatorRoutes } from "./partners";
import { restatementOperatorRoutes } from "./restatements";
import { savedVersionOperatorRoutes } from "./saved-versions";

export const OPERATOR_ROUTES = [
  importOperatorRoutes,
  partnerOperatorRoutes,
  partnerMoveOperatorRoutes,
  keyOperatorRoutes,
  documentOperatorRoutes,
  savedVersionOperatorRoutes,
  hiddenStatementOperatorRoutes,
  restatementOperatorRoutes,
  auditOperatorRoutes,
  outboxOperatorRoutes,
  deadLetterOperatorRoutes,
] as const;
