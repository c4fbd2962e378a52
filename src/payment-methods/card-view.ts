// A stored card as the API answers it: masked, with its PAN and CVV only when they were opened for
// a caller allowed to read them.
import type { PaymentMethodBody } from "./api-schemas";
import type { ListedCard } from "./card-page";
import type { CardSecrets } from "./card-secrets";
import type { CardRow } from "./card-store";

export function toPaymentMethod(row: ListedCard, secrets: CardSecrets | null): PaymentMethodBody {
  return {
    payment_method_id: row.paymentMethodId,
    customer_id: row.customerId,
    account_id: row.accountId,
    type: row.type,
    status: row.status,
    card: {
      network: row.network,
      card_type: row.cardType,
      last4: row.last4,
      expiration_month: row.expirationMonth,
      expiration_year: row.expirationYear,
      wallets: row.wallets,
      ...(secrets === null
        ? {}
        : {
            pci_details: {
              pan: secrets.pan,
              cvv: secrets.cvv,
              expiration_month: row.expirationMonth,
              expiration_year: row.expirationYear,
            },
          }),
    },
    created_at: row.createdAt,
  };
}

/** The stored ciphertext of a card, when it has any. */
export function sealedOf(row: CardRow) {
  return row.panCiphertext === null || row.cvvCiphertext === null || row.keyId === null
    ? null
    : { panCiphertext: row.panCiphertext, cvvCiphertext: row.cvvCiphertext, keyId: row.keyId };
}
