// The dashboard's pages, one line each: what the dashboard mounts, and, in this order, the header's
// navigation (the pages that have a link).

import { auditPage } from "./audit/audit-page";
import type { DashboardPage } from "./dashboard/page";
import { signOutPage } from "./dashboard/sign-in";
import { documentsPage } from "./documents/documents-page";
import { keyRevokePage, keyRollPage } from "./keys/key-actions";
import { keysPage } from "./keys/keys-page";
import { logsPage } from "./request-logs/logs-page";
import { ROUTES } from "./routes";
import { versionPage } from "./saved-versions/version-page";
import { sandboxPage } from "./simulations/sandbox-page";
import { teamPage } from "./team/team-page";
import { endpointActionsPage } from "./webhooks/endpoint-actions";
import { endpointPage } from "./webhooks/endpoint-page";
import { webhooksPage } from "./webhooks/webhooks-page";
import { accountPage } from "./workbench/account-page";
import { customersPage } from "./workbench/customers-page";
import { overviewPage } from "./workbench/overview-page";

export const PAGES: readonly DashboardPage[] = [
  overviewPage,
  logsPage(ROUTES.map((route) => route.path)),
  keysPage,
  keyRollPage,
  keyRevokePage,
  webhooksPage,
  endpointPage,
  endpointActionsPage,
  versionPage,
  sandboxPage,
  documentsPage,
  customersPage,
  accountPage,
  teamPage,
  auditPage,
  signOutPage,
];
