// Who may do what in the dashboard: one table, read by every route and by nothing else.
import type { Environment } from "./environment";

export const ROLES = ["Admin", "Developer"] as const;
export type Role = (typeof ROLES)[number];

const BOTH: readonly Environment[] = ["sandbox", "production"];
const NONE: readonly Environment[] = [];

/**
 * Each action, per role, with the environments it is allowed in. Partner-wide actions (team,
 * audit, products' statement documents) list both environments or none. Developers build against
 * sandbox: they manage its keys and webhook endpoints, and only look at production's. Simulations
 * exist in sandbox only, for everyone.
 */
export const PERMISSIONS = {
  "keys.view": { Admin: BOTH, Developer: BOTH },
  "keys.create": { Admin: BOTH, Developer: ["sandbox"] },
  "keys.roll": { Admin: BOTH, Developer: ["sandbox"] },
  "keys.revoke": { Admin: BOTH, Developer: ["sandbox"] },
  "webhooks.view": { Admin: BOTH, Developer: BOTH },
  "webhooks.create": { Admin: BOTH, Developer: ["sandbox"] },
  "webhooks.roll_secret": { Admin: BOTH, Developer: ["sandbox"] },
  "webhooks.delete": { Admin: BOTH, Developer: ["sandbox"] },
  "webhooks.enable": { Admin: BOTH, Developer: ["sandbox"] },
  "webhooks.resend": { Admin: BOTH, Developer: ["sandbox"] },
  "version.view": { Admin: BOTH, Developer: BOTH },
  "version.change": { Admin: BOTH, Developer: NONE },
  "version.rollback": { Admin: BOTH, Developer: NONE },
  "team.view": { Admin: BOTH, Developer: NONE },
  "team.invite": { Admin: BOTH, Developer: NONE },
  "team.change_role": { Admin: BOTH, Developer: NONE },
  "team.remove": { Admin: BOTH, Developer: NONE },
  "audit.view": { Admin: BOTH, Developer: NONE },
  "documents.view": { Admin: BOTH, Developer: BOTH },
  "documents.change": { Admin: BOTH, Developer: NONE },
  "simulations.run": { Admin: ["sandbox"], Developer: ["sandbox"] },
  "sandbox.reset": { Admin: ["sandbox"], Developer: NONE },
  "overview.view": { Admin: BOTH, Developer: BOTH },
  "logs.view": { Admin: BOTH, Developer: BOTH },
  "data.view": { Admin: BOTH, Developer: ["sandbox"] },
} as const satisfies Record<string, Record<Role, readonly Environment[]>>;

export type DashboardAction = keyof typeof PERMISSIONS;

/** The environments `role` may take `action` in, as a list of any of them. */
function allowedEnvironments(role: Role, action: DashboardAction): readonly Environment[] {
  return PERMISSIONS[action][role];
}

/** Whether `role` may take `action` in `environment` (partner-wide actions: either one). */
export function allows(role: Role, action: DashboardAction, environment: Environment): boolean {
  return allowedEnvironments(role, action).includes(environment);
}

/**
 * Whether `role` sees real customers' data of `environment` (`data.view`: the customers pages,
 * and the statements of the version preview). Developers build against sandbox: production
 * customers' statements, figures and PDF links are for Admins, who answer for production. A
 * Developer's production preview is built from sandbox data instead of being refused.
 */
export function seesCustomerData(role: Role, environment: Environment): boolean {
  return allows(role, "data.view", environment);
}

const DESCRIPTIONS: Record<DashboardAction, string> = {
  "keys.view": "view API keys",
  "keys.create": "create API keys",
  "keys.roll": "roll API keys",
  "keys.revoke": "revoke API keys",
  "webhooks.view": "view webhook endpoints",
  "webhooks.create": "create webhook endpoints",
  "webhooks.roll_secret": "roll webhook secrets",
  "webhooks.delete": "delete webhook endpoints",
  "webhooks.enable": "enable webhook endpoints",
  "webhooks.resend": "re-send events",
  "version.view": "view the saved API version",
  "version.change": "change the saved API version",
  "version.rollback": "roll back the saved API version",
  "team.view": "view the team",
  "team.invite": "invite users",
  "team.change_role": "change roles",
  "team.remove": "remove users",
  "audit.view": "view the audit log",
  "documents.view": "view how statement documents look",
  "documents.change": "change how statement documents look",
  "simulations.run": "run sandbox simulations",
  "sandbox.reset": "reset sandbox data",
  "overview.view": "view the overview",
  "logs.view": "view request logs",
  "data.view": "view customer data",
};

/** Why `role` may not take `action` in `environment`, in a sentence for the page. */
export function refusalOf(role: Role, action: DashboardAction, environment: Environment): string {
  const allowedIn = allowedEnvironments(role, action);
  const what = DESCRIPTIONS[action];
  if (!ROLES.some((r) => allows(r, action, environment))) {
    const anyone = ROLES.flatMap((r) => allowedEnvironments(r, action));
    const where = [...new Set(anyone)].join(" and ");
    return `Nobody can ${what} in ${environment}: it is for ${where} only.`;
  }
  if (allowedIn.length > 0) return `${role}s cannot ${what} in ${environment}; ask an Admin.`;
  return `Only Admins can ${what}.`;
}
