// `npm run webhooks:trigger <type>`: makes an event of that type happen in the sandbox, through
// the sandbox simulations (as `stripe trigger` does), so that a receiver can be tried on the real
// thing: a billing cycle closes on the account of the tool's own sandbox customer (made once,
// linked as `webhooks-trigger`), and its statement is announced, then its document once rendered.
// A type no simulation makes is refused, naming those it can. The API key and base URL come from
// API_KEY and BASE, or from .wrangler/demo.env; MERCHANT_KEY names the product when the partner
// has several.
import { CardStatementsError } from "@card-statements/client";
import { fail, localApi, VERSION } from "./local-api.ts";

/** What the tool's customer is linked as, so that every run finds it again. */
const CUSTOMER_REF = "webhooks-trigger";

/** The types a simulation makes, and how long each takes to follow the cycle's close. */
const TRIGGERS: Record<string, { waitMs: number }> = {
  "statement.created": { waitMs: 10_000 },
  // Its document renders first (a few seconds locally).
  "statement.pdf_available": { waitMs: 60_000 },
};
const MAKES = Object.keys(TRIGGERS).join(", ");

const type = process.argv[2];
if (!type || type.startsWith("-")) {
  fail(`name an event type: npm run webhooks:trigger <type>, one of ${MAKES}`);
}
const { client } = localApi();

/**
 * Waits for the event of `eventType` of the statement (among the newest of that type: it is new);
 * null when it does not come in time.
 */
async function eventOf(eventType: string, statementId: string, waitMs: number) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const newest = await client.http.GET("/v2/events", {
      params: { query: { type: eventType, limit: 20 } },
    });
    const found = (newest.data?.data ?? []).find(
      (event) => event.data.statement.statement_id === statementId,
    );
    if (found) return found;
    if (Date.now() > deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The tool's own sandbox customer and its account: found by its link, or made once. */
async function triggerAccount(): Promise<{ customerId: string; accountId: string }> {
  for await (const customer of client.customers.list({ limit: 100 })) {
    if (customer.partner_customer_id !== CUSTOMER_REF) continue;
    for await (const account of client.accounts.list(customer.customer_id)) {
      return { customerId: customer.customer_id, accountId: account.account_id };
    }
  }
  const made = await client.simulations.createCustomer({ partner_customer_id: CUSTOMER_REF });
  return { customerId: made.customer_id, accountId: made.accounts[0]?.account_id ?? "" };
}

try {
  const trigger = TRIGGERS[type];
  if (!trigger) {
    const known = (await client.eventTypes.list()).map((t) => t.type);
    fail(
      known.includes(type)
        ? `no sandbox simulation makes ${type} events; webhooks:trigger makes ${MAKES}`
        : `${type} is not an event type of API version ${VERSION} (${known.join(", ")}); ` +
            `webhooks:trigger makes ${MAKES}`,
    );
  }
  const { customerId, accountId } = await triggerAccount();
  const statement = await client.simulations.closeCycle({
    customer_id: customerId,
    account_id: accountId,
  });
  console.log(
    `Closed a sandbox billing cycle of account ${accountId} (customer ${customerId}): ` +
      `statement ${statement.statement_id}.`,
  );
  for (const made of Object.keys(TRIGGERS)) {
    const event = await eventOf(made, statement.statement_id, TRIGGERS[made]?.waitMs ?? 0);
    if (!event) {
      fail(
        `no ${made} event for ${statement.statement_id} yet: a product whose documents are ` +
          "uploaded announces a PDF only once the operator uploads it",
      );
    }
    console.log(`✔ ${made} ${event.event_id}`);
    if (made === type) break;
  }
} catch (err) {
  const why = err instanceof CardStatementsError ? `${err.status} ${err.message}` : String(err);
  fail(`the simulation failed: ${why}`);
}
