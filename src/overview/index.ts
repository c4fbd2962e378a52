// The dashboard's Overview: a partner's requests, errors and versions in use, day by day.
export { overviewPage } from "./overview-page";
