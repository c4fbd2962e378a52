// A partner's saved API version: its storage and history, and the dashboard's version page.
export {
  changeSavedVersion,
  importedVersionRecords,
  readSavedVersion,
} from "./saved-version-store";
export { versionPage } from "./version-page";
