// A customer's cards on its data-browser page, masked as any API key reads them (`•••• 4242`):
// the PAN and CVV never reach a dashboard page, whoever looks.

import { Table } from "../dashboard/table";
import type { Database } from "../db/client";
import type { ReadScope } from "../db/customers";
import { type PaymentMethodBody, readCardPage, toPaymentMethod } from "../payment-methods";
import { Fact } from "./data-view";

/** Cards shown, newest first; the API lists the rest. */
const CARDS_SHOWN = 50;

/** The customer's newest cards, masked, and whether it has more. */
export async function customerCards(db: Database, scope: ReadScope, customerId: string) {
  const page = await readCardPage(db, scope, customerId, {
    limit: CARDS_SHOWN,
    after: null,
    status: null,
  });
  return {
    cards: page.rows.slice(0, CARDS_SHOWN).map((row) => toPaymentMethod(row, null)),
    more: page.rows.length > CARDS_SHOWN,
  };
}

export function CustomerCards(props: {
  customerId: string;
  cards: PaymentMethodBody[];
  more: boolean;
}) {
  if (props.cards.length === 0) return <p>No cards.</p>;
  return (
    <>
      <Table
        caption={`Cards of ${props.customerId}, newest first`}
        columns={["Card", "Number", "Network", "Type", "Status", "Expires", "Account"]}
      >
        {props.cards.map((card) => (
          <tr>
            <td>
              <code>{card.payment_method_id}</code>
            </td>
            <td>•••• {card.card.last4}</td>
            <td>{card.card.network}</td>
            <td>{card.card.card_type}</td>
            <td>
              <Fact value={card.status} />
            </td>
            <td>
              {String(card.card.expiration_month).padStart(2, "0")}/{card.card.expiration_year}
            </td>
            <td>
              <code>{card.account_id}</code>
            </td>
          </tr>
        ))}
      </Table>
      {props.more && <p class="muted">Older cards: GET /v2/payment_methods lists them all.</p>}
    </>
  );
}
