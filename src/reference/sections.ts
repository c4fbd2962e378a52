// The reference's sections (its OpenAPI tags), in the order it lists them. A route names its
// section in its declaration (`tag`); its section says what the routes are, and where their scope
// comes from and why (the reference's scope table and each operation's description say it).

/** A section of the reference. */
export interface Section {
  /** What the section's routes are: the tag's description. */
  description: string;
  /** Where its routes' scope comes from: the specification's scope table, or this service. */
  source: "specification" | "service";
  /** Why its routes take the scope they do. */
  why: string;
}

/** Every section, in the reference's order. */
export const SECTIONS: Readonly<Record<string, Section>> = {
  Statements: {
    description: "Closed billing cycles of an account, newest first.",
    source: "specification",
    why: "Named by the specification's scope table: statement reads.",
  },
  Accounts: {
    description: "Card accounts of a customer, as they stand today.",
    source: "specification",
    why: "Named by the specification's scope table: account and rewards-category reads.",
  },
  "Transaction intents": {
    description:
      "A card transaction you expect before it arrives, for one of your customers: created " +
      "`REQUIRES_CONFIRMATION`, then confirmed (`CONFIRMED`) or canceled (`CANCELED`; a " +
      "confirmed intent may still be canceled); any other change of status, or of the amount " +
      "once confirmed, answers `409`, decided by the write itself so two racing updates cannot " +
      "both pass. `metadata` holds at most 20 keys of strings up to 500 characters. Each call " +
      "is one round trip: a create reads the customer (and card) and writes 1 row and its audit " +
      "row, an update writes 1 row and its audit row, a retrieve reads 1 row, a list reads the " +
      "customer and at most `limit + 1` rows of an index on the customer (and status).",
    source: "specification",
    why: "Named by the specification's scope table.",
  },
  "Payment methods": {
    description:
      "A customer's cards, masked for any key; their PAN and CVV only for keys holding " +
      "PCI_DETAILS_READ, on retrieve. Provisioning a card to a wallet (Apple Pay, Google Pay, " +
      "Samsung Pay) takes CARD_WRITE. " +
      "Rows per call: a list is one round trip, the key lookup's own, reading the customer and " +
      "at most `limit + 1` rows of an index on the customer; a retrieve reads 1 row.",
    source: "specification",
    why:
      "Reads are outside the specification's scope table, so any valid key reads a masked " +
      "card; provisioning takes the scope the table names.",
  },
  Orders: {
    description:
      "The orders your checkout took, with their lines, and their captures and refunds (order " +
      "events) matched to the card network's transaction. Lines add up to `total_amount`; " +
      "`partner_order_id` and `partner_event_id` are unique per product (`409` naming the " +
      "order or event holding them); captures never pass the total and refunds never pass the " +
      "captures (`409`); `captured_amount` and `refunded_amount` are the sums of the order's " +
      "events, written in the same transaction as each event. Bounds: 100 lines per order, " +
      "100 events per order (one more answers `409` naming `order_id`), 1 MiB per body. Every " +
      "write takes an `Idempotency-Key` (a PUT or DELETE as a POST: a repeated DELETE answers " +
      "its `204` again) and writes its audit row in its own batch. Rows per call: a create " +
      "reads the customer (and card) and writes 1 row; an update reads and writes the order; " +
      "an event create writes 2 rows (the event, taking its order's currency, and the order's " +
      "sum) in one batch, its checks made by the insert itself (with an `Idempotency-Key`, it " +
      "reads the order first); deletes write 1 row (an event's, 2); a list reads at most `limit + 1` rows of an " +
      "index. Each write's audit row is one row more.",
    source: "specification",
    why: "Named by the specification's scope table.",
  },
  Events: {
    description:
      "What happened to statements, newest first, kept 30 days; the same events are pushed to " +
      "webhook endpoints.",
    source: "service",
    why:
      "Each event carries a statement of an account: reading events is reading statements, so " +
      "it takes the scope that reads them.",
  },
  "Event types": {
    description:
      "The event types of this API version, with what each announces: what webhook endpoints " +
      "take (`enabled_events`) and event lists filter on (`type`).",
    source: "service",
    why:
      "The catalogue names what events and webhook endpoints carry, which that scope reads, so " +
      "it takes the same scope.",
  },
  "Webhook endpoints": {
    description: "HTTPS endpoints that receive statement events, signed per Standard Webhooks.",
    source: "service",
    why:
      "An endpoint receives statement events, so managing one takes the scope that reads " +
      "statements (as it always has: a key with it manages its endpoints).",
  },
  Keys: {
    description: "API keys, created with the scopes of the key creating them.",
    source: "specification",
    why:
      "Outside the specification's scope table, so a valid key is enough: the key it creates " +
      "carries exactly the creating key's scopes, so it grants nothing the caller lacks.",
  },
  Customers: {
    description: "The customers of the product your key reads.",
    source: "specification",
    why:
      "Outside the specification's scope table, so a valid key is enough; a key still sees " +
      "only the customers of its own product.",
  },
  "Sandbox simulations": {
    description:
      "Sandbox keys only: customers, accounts, statements and test cards of your own, whose " +
      "documents render and whose events reach your webhook endpoints like real ones.",
    source: "service",
    why:
      "Sandbox keys only. A simulation makes customers, accounts, statements and test cards of " +
      "those accounts, which that scope reads, so making them takes the same scope.",
  },
};
