// The dashboard's pages, one line each: what the dashboard mounts, and, in this order, the header's
// navigation (the pages that have a link).

import { auditPage } from "./audit";
import type { DashboardPage } from "./dashboard/page";
import { signOutPage } from "./dashboard/sign-in";
import { accountPage, customersPage, ordersPage, statementPage } from "./data-browser";
import { documentsPage } from "./documents";
import { keyRevokePage, keyRollPage, keysPage } from "./keys";
import { overviewPage } from "./overview";
import { logsPage } from "./request-logs";
import { ROUTES } from "./routes";
import { versionPage } from "./saved-versions";
import { settingsPage } from "./settings";
import { sandboxPage } from "./simulations";
import { teamPage } from "./team";
import { endpointActionsPage, endpointPage, webhooksPage } from "./webhook-pages";

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
  ordersPage,
  statementPage,
  teamPage,
  auditPage,
  settingsPage,
  signOutPage,
];
