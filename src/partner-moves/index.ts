// Moving a partner between shards: the operator's move routes over the partner's tables, and the
// maintenance step that aborts a move left frozen too long.
export { partnerMoveOperatorRoutes } from "./operator-routes";
export { stuckMovesAborted } from "./stuck-moves";
