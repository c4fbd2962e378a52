// Orders and order events: the /v2 routes, and what the data browser and transaction intents use.
export * from "./api-schemas";
export { checkBodyOwners } from "./body-owners";
export * from "./order-event-routes";
export { eventsOfOrders } from "./order-event-store";
export * from "./order-routes";
export {
  type OrderEventRow,
  type OrderRow,
  parseStored,
  toOrder,
  toOrderEvent,
} from "./order-rows";
export { orderPage } from "./order-store";
