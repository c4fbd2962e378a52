// /v2/orders: named by the specification's scope table, without the behaviour: 501.
import { notImplemented } from "../app/route";

export const listOrders = notImplemented({
  method: "GET",
  path: "/v2/orders",
  summary: "List orders",
  operationId: "listOrders",
  tag: "Orders",
  scope: "ORDER_READ",
});

export const createOrder = notImplemented({
  method: "POST",
  path: "/v2/orders",
  summary: "Create an order",
  operationId: "createOrder",
  tag: "Orders",
  scope: "ORDER_WRITE",
});

export const updateOrder = notImplemented({
  method: "PUT",
  path: "/v2/orders/:order_id",
  summary: "Update an order",
  operationId: "updateOrder",
  tag: "Orders",
  scope: "ORDER_WRITE",
});

export const deleteOrder = notImplemented({
  method: "DELETE",
  path: "/v2/orders/:order_id",
  summary: "Delete an order",
  operationId: "deleteOrder",
  tag: "Orders",
  scope: "ORDER_WRITE",
});
