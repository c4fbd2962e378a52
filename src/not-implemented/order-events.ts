// /v2/order_events: named by the specification's scope table, without the behaviour: 501.
import { notImplemented } from "../app/route";

export const listOrderEvents = notImplemented({
  method: "GET",
  path: "/v2/order_events",
  summary: "List order events",
  operationId: "listOrderEvents",
  tag: "Orders",
  scope: "ORDER_READ",
});

export const createOrderEvent = notImplemented({
  method: "POST",
  path: "/v2/order_events",
  summary: "Create an order event",
  operationId: "createOrderEvent",
  tag: "Orders",
  scope: "ORDER_WRITE",
});

export const deleteOrderEvent = notImplemented({
  method: "DELETE",
  path: "/v2/order_events/:order_event_id",
  summary: "Delete an order event",
  operationId: "deleteOrderEvent",
  tag: "Orders",
  scope: "ORDER_WRITE",
});
