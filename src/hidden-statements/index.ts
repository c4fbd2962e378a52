// Hidden statements: the operator withdraws a statement from its partner's reads, and its
// endpoints receive `statement.hidden`.
export { hiddenStatementOperatorRoutes } from "./operator-routes";
