// The dashboard's team page: users, roles and invitations.
export { teamPage } from "./team-page";
