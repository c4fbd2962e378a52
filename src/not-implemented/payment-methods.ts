// /v2/payment_methods: named by the specification's scope table, without the behaviour: 501.
import { notImplemented } from "../app/route";

export const provisionPaymentMethod = notImplemented({
  method: "POST",
  path: "/v2/payment_methods/:payment_method_id/provision/:wallet",
  summary: "Provision a payment method to a wallet",
  operationId: "provisionPaymentMethodToWallet",
  tag: "Payment methods",
  scope: "CARD_WRITE",
});
