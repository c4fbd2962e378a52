// The canonical (newest) Account: the account as imported, plus the instant it was read.

/** Where the customer stands today; absent figures stay absent, like a statement's. */
export interface Account {
  account_id: string;
  customer_id: string;
  status?: string;
  currency?: string;
  credit_limit?: number;
  current_balance?: number;
  available_credit?: number;
  /** When the account was read, which is when the request was served. */
  as_of: string;
}

/** What an account read returns: the imported figures, null where the import gave none. */
export interface AccountRecord {
  accountId: string;
  customerId: string;
  status: string | null;
  currency: string | null;
  creditLimit: number | null;
  currentBalance: number | null;
  availableCredit: number | null;
}

/** The canonical account of a record; anything else a row holds never leaves this function. */
export function toAccount(row: AccountRecord, asOf: string): Account {
  const out: Omit<Account, "as_of"> = { account_id: row.accountId, customer_id: row.customerId };
  if (row.status !== null) out.status = row.status;
  if (row.currency !== null) out.currency = row.currency;
  if (row.creditLimit !== null) out.credit_limit = row.creditLimit;
  if (row.currentBalance !== null) out.current_balance = row.currentBalance;
  if (row.availableCredit !== null) out.available_credit = row.availableCredit;
  return { ...out, as_of: asOf };
}
