// The dashboard's settings page: the partner's settings, among them where its data is stored.
export { settingsPage } from "./settings-page";
