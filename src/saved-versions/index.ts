// A partner's saved API version: its storage and history, the dashboard's version page, and the
// operator's routes that set it and read which versions are in use.
export { savedVersionOperatorRoutes } from "./operator-routes";
export { importedVersionRecords, readSavedVersion } from "./saved-version-store";
export { versionPage } from "./version-page";
