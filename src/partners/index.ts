// Partners as the operator sees them: a partner's placement and its dashboard users.
export { partnerOperatorRoutes } from "./operator-routes";
