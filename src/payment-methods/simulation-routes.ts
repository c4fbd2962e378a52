// POST /v2/simulations/payment_methods: a test card for one of a sandbox customer's accounts, its
// PAN on a network's test range (test-cards.ts), stored and encrypted as an imported card is, and
// answered as the retrieve answers it. Sandbox keys only, like the other simulations: for a
// production key the route does not exist. Each counts against the simulation rate limit; a
// card's customer bounds how many there are (the sandbox's customer quota and expiry).
import { accountNotFound, customerNotFound } from "../app/errors";
import { readScope } from "../app/pipeline";
import { route } from "../app/route";
import { encodeIdSuffix } from "../domain/ids";
import { chargeSandboxBudget } from "../sandbox-budgets";
import { limitSimulations } from "../simulations";
import { PaymentMethod, SimulatePaymentMethodRequest } from "./api-schemas";
import { readCardAsCaller } from "./card-answer";
import { cardVaultOf } from "./card-secrets";
import { storeCardOfAccount } from "./card-store";
import { testCard } from "./test-cards";

export const simulatePaymentMethod = route({
  method: "POST",
  path: "/v2/simulations/payment_methods",
  summary: "Create a sandbox test card",
  operationId: "createSandboxPaymentMethod",
  tag: "Sandbox simulations",
  errors: [{ status: 404, types: ["CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR"] }],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  environments: ["sandbox"],
  body: { schema: SimulatePaymentMethodRequest, required: true },
  response: { status: 201, schema: PaymentMethod },
  async handler(c, { body, reply }) {
    await limitSimulations(c, c.get("caller").partnerId);
    await chargeSandboxBudget(c, body);
    const now = c.get("now")();
    const scope = readScope(c);
    const paymentMethodId = `pm_${encodeIdSuffix(now.getTime())}`;
    const card = testCard(body.network ?? "VISA", now);
    // Encrypted before anything is written, as the import encrypts a card.
    const sealed = await cardVaultOf(c.env).seal(card, paymentMethodId);
    const db = c.get("db");
    const stored = await storeCardOfAccount(db, scope, {
      paymentMethodId,
      customerId: body.customer_id,
      accountId: body.account_id,
      type: "CARD",
      status: body.status ?? "ACTIVE",
      network: body.network ?? "VISA",
      cardType: body.card_type ?? "VIRTUAL",
      last4: card.last4,
      expirationMonth: card.expirationMonth,
      expirationYear: card.expirationYear,
      ...sealed,
      createdAt: now.toISOString(),
    });
    if (stored === "customer_not_found") throw customerNotFound(body.customer_id);
    if (stored === "account_not_found") throw accountNotFound(body.account_id);
    const answer = await readCardAsCaller(c, paymentMethodId);
    // Just stored in this scope: only a sandbox reset in between takes it away.
    if (!answer) throw customerNotFound(body.customer_id);
    return reply(answer);
  },
});
