// Who may do what in the dashboard: one table, read by every route and by nothing else.
import type { Environment } from "../../versions";

export const ROLES = ["Admin", "Developer"] as const;
export type Role = (typeof ROLES)[number];

const BOTH: readonly Environment[] = ["sandbox", "production"];
const NONE: readonly Environment[] = [];

/**
 * Each action, per role, with the environments it is allowed in. Partner-wide actions (team,
 * audit) list both environments or none. Developers build against sandbox: they manage its keys,
 * and only look at production's.
 */
export const PERMISSIONS = {
  "keys.view": { Admin: BOTH, Developer: BOTH },
  "keys.create": { Admin: BOTH, Developer: ["sandbox"] },
  "keys.roll": { Admin: BOTH, Developer: ["sandbox"] },
  "keys.revoke": { Admin: BOTH, Developer: ["sandbox"] },
  "version.view": { Admin: BOTH, Developer: BOTH },
  "version.change": { Admin: BOTH, Developer: NONE },
  "version.rollback": { Admin: BOTH, Developer: NONE },
  "team.view": { Admin: BOTH, Developer: NONE },
  "team.invite": { Admin: BOTH, Developer: NONE },
  "team.change_role": { Admin: BOTH, Developer: NONE },
  "team.remove": { Admin: BOTH, Developer: NONE },
  "audit.view": { Admin: BOTH, Developer: NONE },
} as const satisfies Record<string, Record<Role, readonly Environment[]>>;

export type DashboardAction = keyof typeof PERMISSIONS;

/** Whether `role` may take `action` in `environment` (partner-wide actions: either one). */
export function allows(role: Role, action: DashboardAction, environment: Environment): boolean {
  return (PERMISSIONS[action][role] as readonly Environment[]).includes(environment);
}
