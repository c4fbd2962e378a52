// Moving a partner between shards: the operator's move routes over the partner's tables.
export { partnerMoveOperatorRoutes } from "./operator-routes";
