// The canonical (newest) Customer, and the rule for a partner's own customer identifier.

export interface AuthorizedUser {
  authorized_user_id: string;
  name: string;
}

export interface Customer {
  customer_id: string;
  /** The partner's own identifier for the customer, once linked. */
  partner_customer_id?: string;
  /** Only for keys holding AUTHORIZED_USER_READ (a soft scope: without it, simply absent). */
  authorized_users?: AuthorizedUser[];
}

/**
 * What a customer read returns; list pages leave `authorizedUsers` out (never revealed there).
 * `authorizedUsers` is the stored JSON array, or null.
 */
export interface CustomerRecord {
  customerId: string;
  partnerCustomerId: string | null;
  authorizedUsers?: string | null;
}

/**
 * The canonical customer of a row. Partner, environment and product never leave this function;
 * `authorized_users` is revealed only when the caller may see it (an empty list when there are
 * none).
 */
export function toCustomer(
  row: CustomerRecord,
  options: { revealAuthorizedUsers: boolean },
): Customer {
  const out: Customer = { customer_id: row.customerId };
  if (row.partnerCustomerId !== null) out.partner_customer_id = row.partnerCustomerId;
  if (options.revealAuthorizedUsers) {
    // Stored only by the import, as the JSON text of its checked authorized users.
    out.authorized_users = row.authorizedUsers
      ? (JSON.parse(row.authorizedUsers) as AuthorizedUser[])
      : [];
  }
  return out;
}

export const PARTNER_CUSTOMER_ID_MAX = 255;

/**
 * Why `value` cannot be a partner customer id (1..255 characters of well-formed text), or null
 * when it can. Characters are counted as code points, so an emoji counts once.
 */
export function partnerCustomerIdProblem(value: unknown): string | null {
  if (typeof value !== "string") return "partner_customer_id must be a string";
  const length = [...value].length;
  if (length < 1 || length > PARTNER_CUSTOMER_ID_MAX) {
    const bounds = `1 to ${PARTNER_CUSTOMER_ID_MAX}`;
    return `partner_customer_id must be ${bounds} characters long; got ${length}`;
  }
  // With the u flag this matches only unpaired surrogates, which storage could not keep as sent.
  if (/[\uD800-\uDFFF]/u.test(value)) return "partner_customer_id must be well-formed Unicode text";
  return null;
}
