// Restatements: a corrected statement that replaces one already stored.

export { operatorRestatementRoutes as restatementOperatorRoutes } from "./restatements";
