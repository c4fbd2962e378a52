// Generated from the API reference of version latest (/openapi/latest.json) by
// `npm run client:generate`. Do not edit: regenerate.

export interface paths {
    "/v2/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List orders
         * @description Requires the `ORDER_READ` scope. Named by the specification's scope table.
         */
        get: operations["listOrders"];
        put?: never;
        /**
         * Create an order
         * @description Requires the `ORDER_WRITE` scope. Named by the specification's scope table.
         */
        post: operations["createOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/order_events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List order events
         * @description Requires the `ORDER_READ` scope. Named by the specification's scope table.
         */
        get: operations["listOrderEvents"];
        put?: never;
        /**
         * Create an order event
         * @description Requires the `ORDER_WRITE` scope. Named by the specification's scope table.
         */
        post: operations["createOrderEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/orders/{order_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Update an order
         * @description Requires the `ORDER_WRITE` scope. Named by the specification's scope table.
         */
        put: operations["updateOrder"];
        post?: never;
        /**
         * Delete an order
         * @description Requires the `ORDER_WRITE` scope. Named by the specification's scope table.
         */
        delete: operations["deleteOrder"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/order_events/{order_event_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an order event
         * @description Requires the `ORDER_WRITE` scope. Named by the specification's scope table.
         */
        delete: operations["deleteOrderEvent"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/transaction_intents/{intent_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a transaction intent
         * @description Requires the `TRANSACTION_INTENT_READ` scope. Named by the specification's scope table.
         */
        get: operations["retrieveTransactionIntent"];
        put?: never;
        /**
         * Update a transaction intent
         * @description Requires the `TRANSACTION_INTENT_WRITE` scope. Named by the specification's scope table.
         */
        post: operations["updateTransactionIntent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/customers/{customer_id}/transaction_intents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a customer's transaction intents
         * @description Requires the `TRANSACTION_INTENT_READ` scope. Named by the specification's scope table.
         */
        get: operations["listCustomerTransactionIntents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/transaction_intents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a transaction intent
         * @description Requires the `TRANSACTION_INTENT_WRITE` scope. Named by the specification's scope table.
         */
        post: operations["createTransactionIntent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/payment_methods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a customer's payment methods
         * @description Needs no scope beyond a valid key. Reads are outside the specification's scope table, so any valid key reads a masked card; provisioning takes the scope the table names.
         */
        get: operations["listPaymentMethods"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/payment_methods/{payment_method_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a payment method
         * @description Needs no scope beyond a valid key. Reads are outside the specification's scope table, so any valid key reads a masked card; provisioning takes the scope the table names.
         */
        get: operations["retrievePaymentMethod"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/payment_methods/{payment_method_id}/provision/{wallet}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Provision a payment method to a wallet
         * @description Requires the `CARD_WRITE` scope. Reads are outside the specification's scope table, so any valid key reads a masked card; provisioning takes the scope the table names.
         */
        post: operations["provisionPaymentMethodToWallet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/customers/{customer_id}/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a customer's accounts
         * @description Requires the `ACCOUNT_READ` scope. Named by the specification's scope table: account and rewards-category reads.
         */
        get: operations["listCustomerAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/customers/{customer_id}/accounts/{account_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve an account
         * @description Requires the `ACCOUNT_READ` scope. Named by the specification's scope table: account and rewards-category reads.
         */
        get: operations["retrieveAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/customers/{customer_id}/accounts/{account_id}/rewards_categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an account's rewards categories
         * @description Requires the `ACCOUNT_READ` scope. Named by the specification's scope table: account and rewards-category reads.
         */
        get: operations["listAccountRewardsCategories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/customers/{customer_id}/accounts/{account_id}/statements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an account's statements
         * @description Requires the `ACCOUNT_READ` scope. Named by the specification's scope table: statement reads.
         */
        get: operations["listAccountStatements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/customers/{customer_id}/accounts/{account_id}/statements/{statement_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a statement
         * @description Requires the `ACCOUNT_READ` scope. Named by the specification's scope table: statement reads.
         */
        get: operations["retrieveStatement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/customers/{customer_id}/accounts/{account_id}/statements/{statement_id}/line_items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a statement's line items
         * @description Requires the `ACCOUNT_READ` scope. Named by the specification's scope table: statement reads.
         */
        get: operations["listStatementLineItems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List customers
         * @description Needs no scope beyond a valid key. Outside the specification's scope table, so a valid key is enough; a key still sees only the customers of its own product.
         */
        get: operations["listCustomers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/customers/{customer_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a customer
         * @description Needs no scope beyond a valid key. Outside the specification's scope table, so a valid key is enough; a key still sees only the customers of its own product.
         */
        get: operations["retrieveCustomer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/customers/{customer_id}/link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Link a partner customer id
         * @description Needs no scope beyond a valid key. Outside the specification's scope table, so a valid key is enough; a key still sees only the customers of its own product.
         */
        post: operations["linkPartnerCustomerId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an API key
         * @description Needs no scope beyond a valid key. Outside the specification's scope table, so a valid key is enough: the key it creates carries exactly the creating key's scopes, so it grants nothing the caller lacks.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List events
         * @description Requires the `ACCOUNT_READ` scope. Each event carries a statement of an account: reading events is reading statements, so it takes the scope that reads them.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/events/{event_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve an event
         * @description Requires the `ACCOUNT_READ` scope. Each event carries a statement of an account: reading events is reading statements, so it takes the scope that reads them.
         */
        get: operations["retrieveEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/events/{event_id}/delivery_attempts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an event's delivery attempts
         * @description Requires the `ACCOUNT_READ` scope. Each event carries a statement of an account: reading events is reading statements, so it takes the scope that reads them.
         */
        get: operations["listEventDeliveryAttempts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/events/{event_id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resend an event
         * @description Requires the `ACCOUNT_READ` scope. Each event carries a statement of an account: reading events is reading statements, so it takes the scope that reads them.
         */
        post: operations["resendEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/event_types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List event types
         * @description Requires the `ACCOUNT_READ` scope. The catalogue names what events and webhook endpoints carry, which that scope reads, so it takes the same scope.
         */
        get: operations["listEventTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/webhook_endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description Requires the `ACCOUNT_READ` scope. An endpoint receives statement events, so managing one takes the scope that reads statements (as it always has: a key with it manages its endpoints).
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Create a webhook endpoint
         * @description Requires the `ACCOUNT_READ` scope. An endpoint receives statement events, so managing one takes the scope that reads statements (as it always has: a key with it manages its endpoints).
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/webhook_endpoints/{webhook_endpoint_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a webhook endpoint
         * @description Requires the `ACCOUNT_READ` scope. An endpoint receives statement events, so managing one takes the scope that reads statements (as it always has: a key with it manages its endpoints).
         */
        get: operations["retrieveWebhookEndpoint"];
        put?: never;
        /**
         * Update a webhook endpoint
         * @description Requires the `ACCOUNT_READ` scope. An endpoint receives statement events, so managing one takes the scope that reads statements (as it always has: a key with it manages its endpoints).
         */
        post: operations["updateWebhookEndpoint"];
        /**
         * Delete a webhook endpoint
         * @description Requires the `ACCOUNT_READ` scope. An endpoint receives statement events, so managing one takes the scope that reads statements (as it always has: a key with it manages its endpoints).
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/webhook_endpoints/{webhook_endpoint_id}/roll_secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Roll a webhook endpoint's secret
         * @description Requires the `ACCOUNT_READ` scope. An endpoint receives statement events, so managing one takes the scope that reads statements (as it always has: a key with it manages its endpoints).
         */
        post: operations["rollWebhookEndpointSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/webhook_endpoints/{webhook_endpoint_id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a webhook endpoint
         * @description Requires the `ACCOUNT_READ` scope. An endpoint receives statement events, so managing one takes the scope that reads statements (as it always has: a key with it manages its endpoints).
         */
        post: operations["enableWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/webhook_endpoints/{webhook_endpoint_id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Recover a webhook endpoint's missed events
         * @description Requires the `ACCOUNT_READ` scope. An endpoint receives statement events, so managing one takes the scope that reads statements (as it always has: a key with it manages its endpoints).
         */
        post: operations["recoverWebhookEndpointMissedEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/simulations/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a sandbox customer
         * @description Requires the `ACCOUNT_READ` scope. Sandbox keys only. A simulation makes customers, accounts, statements and test cards of those accounts, which that scope reads, so making them takes the same scope. Sandbox keys only: a production key gets `404`, as for a route that does not exist.
         */
        post: operations["createSandboxCustomer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/simulations/statements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a sandbox billing cycle
         * @description Requires the `ACCOUNT_READ` scope. Sandbox keys only. A simulation makes customers, accounts, statements and test cards of those accounts, which that scope reads, so making them takes the same scope. Sandbox keys only: a production key gets `404`, as for a route that does not exist.
         */
        post: operations["closeSandboxBillingCycle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/simulations/payment_methods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a sandbox test card
         * @description Requires the `ACCOUNT_READ` scope. Sandbox keys only. A simulation makes customers, accounts, statements and test cards of those accounts, which that scope reads, so making them takes the same scope. Sandbox keys only: a production key gets `404`, as for a route that does not exist.
         */
        post: operations["createSandboxPaymentMethod"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "statement.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The statement.created event
         * @description A closed statement became readable. Sent to every enabled endpoint of the product whose `enabled_events` take this type, shaped in the endpoint's `api_version`. Verify the signature over the raw body before parsing it; answer 2xx within 10 seconds. Failed deliveries are retried with backoff for 3 days; delivery is at least once, so de-duplicate on `webhook-id`. An endpoint gets at most 10 deliveries a second: the others wait their turn in the queue, none is dropped. Its Admins are mailed once every attempt has failed for 1 hour, 1 day before it would be disabled, and when it is disabled, after 3 days of failures; `POST /v2/webhook_endpoints/{id}/recover` then queues what it missed. A re-send or a recovery queues a delivery again within the retry window it had (one closed gets one attempt), and a delivery gets 40 attempts in all. Per endpoint and hour: 6 recoveries (one at a time), 60 re-sends and 6 enables; then `429` with `Retry-After`.
         */
        post: operations["receiveStatementCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "statement.pdf_available": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The statement.pdf_available event
         * @description The statement's PDF can now be linked. Sent to every enabled endpoint of the product whose `enabled_events` take this type, shaped in the endpoint's `api_version`. Verify the signature over the raw body before parsing it; answer 2xx within 10 seconds. Failed deliveries are retried with backoff for 3 days; delivery is at least once, so de-duplicate on `webhook-id`. An endpoint gets at most 10 deliveries a second: the others wait their turn in the queue, none is dropped. Its Admins are mailed once every attempt has failed for 1 hour, 1 day before it would be disabled, and when it is disabled, after 3 days of failures; `POST /v2/webhook_endpoints/{id}/recover` then queues what it missed. A re-send or a recovery queues a delivery again within the retry window it had (one closed gets one attempt), and a delivery gets 40 attempts in all. Per endpoint and hour: 6 recoveries (one at a time), 60 re-sends and 6 enables; then `429` with `Retry-After`.
         */
        post: operations["receiveStatementPdfAvailable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "statement.hidden": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The statement.hidden event
         * @description The statement left every read. Sent to every enabled endpoint of the product whose `enabled_events` take this type, shaped in the endpoint's `api_version`. Verify the signature over the raw body before parsing it; answer 2xx within 10 seconds. Failed deliveries are retried with backoff for 3 days; delivery is at least once, so de-duplicate on `webhook-id`. An endpoint gets at most 10 deliveries a second: the others wait their turn in the queue, none is dropped. Its Admins are mailed once every attempt has failed for 1 hour, 1 day before it would be disabled, and when it is disabled, after 3 days of failures; `POST /v2/webhook_endpoints/{id}/recover` then queues what it missed. A re-send or a recovery queues a delivery again within the retry window it had (one closed gets one attempt), and a delivery gets 40 attempts in all. Per endpoint and hour: 6 recoveries (one at a time), 60 re-sends and 6 enables; then `429` with `Retry-After`.
         */
        post: operations["receiveStatementHidden"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "statement.restated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The statement.restated event
         * @description The statement was corrected: its `restated_by` names the correction, which replaces it in the list. Sent to every enabled endpoint of the product whose `enabled_events` take this type, shaped in the endpoint's `api_version`. Verify the signature over the raw body before parsing it; answer 2xx within 10 seconds. Failed deliveries are retried with backoff for 3 days; delivery is at least once, so de-duplicate on `webhook-id`. An endpoint gets at most 10 deliveries a second: the others wait their turn in the queue, none is dropped. Its Admins are mailed once every attempt has failed for 1 hour, 1 day before it would be disabled, and when it is disabled, after 3 days of failures; `POST /v2/webhook_endpoints/{id}/recover` then queues what it missed. A re-send or a recovery queues a delivery again within the retry window it had (one closed gets one attempt), and a delivery gets 40 attempts in all. Per endpoint and hour: 6 recoveries (one at a time), 60 re-sends and 6 enables; then `429` with `Retry-After`.
         */
        post: operations["receiveStatementRestated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description One closed billing cycle. Amounts are integers in the smallest currency unit; a line without activity in the cycle is omitted rather than reported as 0. */
        Statement: {
            /** @description Unique identifier of the statement. */
            statement_id: string;
            /** @description Identifier of the customer. */
            customer_id: string;
            /** @description Identifier of the account the statement belongs to. */
            account_id: string;
            /**
             * Format: date-time
             * @description When the statement was read: when the request was served, the same for a whole page (RFC 3339).
             */
            as_of: string;
            /**
             * Format: date-time
             * @description First day of the billing cycle (RFC 3339).
             */
            period_start_date?: string;
            /**
             * Format: date-time
             * @description When the cycle closed; this is the statement date (RFC 3339).
             */
            period_end_date?: string;
            /**
             * Format: date-time
             * @description When payment for the statement is due (RFC 3339).
             */
            due_date?: string;
            /** @description The statement PDF. Omitted while the document is not available. */
            pdf?: {
                /**
                 * Format: uri
                 * @description Signed link to the statement PDF.
                 */
                url: string;
                /**
                 * Format: date-time
                 * @description When the link stops working: one hour after `as_of` (RFC 3339).
                 */
                expires_at: string;
            };
            /** @description ISO 4217 currency code. */
            currency?: string;
            /**
             * Format: int64
             * @description Balance owed when the cycle closed; negative if paid ahead.
             */
            statement_balance?: number;
            /**
             * Format: int64
             * @description Minimum payment required by `due_date` to keep the account current.
             */
            minimum_due?: number;
            /**
             * Format: int64
             * @description Balance carried over from the previous cycle.
             */
            previous_balance?: number;
            /**
             * Format: int64
             * @description Total purchases posted in the cycle. Positive.
             */
            purchases?: number;
            /**
             * Format: int64
             * @description Total payments received in the cycle. Negative.
             */
            payments?: number;
            /**
             * Format: int64
             * @description Total credits applied in the cycle. Negative.
             */
            credits?: number;
            /**
             * Format: int64
             * @description Total refunds posted in the cycle. Negative.
             */
            refunds?: number;
            /**
             * Format: int64
             * @description Interest charged in the cycle. Positive.
             */
            interest?: number;
            /**
             * Format: int64
             * @description Fees charged in the cycle. Positive.
             */
            fees?: number;
            /**
             * Format: int64
             * @description Portion of `statement_balance` already past due at cycle close.
             */
            overdue_amount?: number;
            /** @description Each periodic rate of the cycle, one per balance type; their `interest` sums to the statement's. Omitted when not recorded. */
            interest_rates?: {
                /**
                 * @description The balance the rate applies to: purchases, cash advances or transfers.
                 * @enum {string}
                 */
                balance_type: "PURCHASES" | "CASH_ADVANCES" | "BALANCE_TRANSFERS";
                /** @description The APR as a decimal string, e.g. `"24.99"` (up to 4 decimals). */
                annual_percentage_rate: string;
                /**
                 * Format: int64
                 * @description The balance the rate was applied to, in the smallest currency unit.
                 */
                balance_subject_to_interest: number;
                /**
                 * Format: int64
                 * @description Interest the rate charged in the cycle. Positive.
                 */
                interest: number;
            }[];
            /** @description Totals for the calendar year of `period_end_date`. Omitted when not recorded. */
            year_to_date?: {
                /**
                 * Format: int64
                 * @description Fees charged in the calendar year so far, this cycle included.
                 */
                fees: number;
                /**
                 * Format: int64
                 * @description Interest charged in the calendar year so far, this cycle included.
                 */
                interest: number;
            };
            /** @description The `statement_id` of the correction that replaced this statement. A restated statement leaves the list (its correction stands in its place) but can still be retrieved by id. */
            restated_by?: string;
            /** @description The `statement_id` of the statement this one corrects. */
            restates?: string;
            /** @description What the cycle earned in rewards, what was redeemed and what is held. Omitted when not recorded. */
            rewards?: {
                /** @description `POINTS`, or the statement's `currency` for cash back (then every figure here is in its smallest unit). */
                unit: string;
                /**
                 * Format: int64
                 * @description Earned in the cycle; negative when returns took back more than it earned.
                 */
                earned: number;
                /**
                 * Format: int64
                 * @description Redeemed in the cycle. Omitted when not recorded.
                 */
                redeemed?: number;
                /**
                 * Format: int64
                 * @description Held after the cycle, ready to redeem. Omitted when not recorded.
                 */
                balance?: number;
                /** @description What each rewards category earned; these sum to `earned`. */
                by_category?: {
                    /** @description One of the account's rewards categories (`category_id`). */
                    category_id: string;
                    /**
                     * Format: int64
                     * @description What purchases in the category earned in the cycle.
                     */
                    earned: number;
                }[];
            };
        };
        StatementList: {
            /** @description Statements of the page, newest first. */
            data: components["schemas"]["Statement"][];
            /** @description True when another page exists. */
            has_more: boolean;
            /** @description Opaque cursor for the next page, sent back as `starting_after`; only with more. */
            next_page_token?: string;
        };
        /** @description One transaction of a statement. The line items of a type sum to the statement's total of that type (`PURCHASE` to `purchases`, …), and `previous_balance` plus every line item is `statement_balance`. */
        LineItem: {
            /** @description Unique identifier of the line item in its statement. */
            line_item_id: string;
            /**
             * @description `PURCHASE`, `INTEREST` and `FEE` are charges (positive or zero); `PAYMENT`, `CREDIT` and `REFUND` are money credited back (negative or zero).
             * @enum {string}
             */
            type: "PURCHASE" | "PAYMENT" | "CREDIT" | "REFUND" | "INTEREST" | "FEE";
            /**
             * Format: date-time
             * @description When the transaction was posted to the account, inside the cycle (RFC 3339).
             */
            posted_at: string;
            /**
             * Format: date-time
             * @description When the transaction happened (RFC 3339).
             */
            transaction_date?: string;
            /** @description The transaction as the cardholder sees it on the statement. */
            description: string;
            /**
             * Format: int64
             * @description In the smallest currency unit of the statement, in the card-statement sign.
             */
            amount: number;
            /** @description Where the card was used; omitted for payments, interest and most fees. */
            merchant?: {
                name: string;
                /** @description The merchant category code (MCC), four digits. */
                category_code: string;
                city?: string;
                /** @description ISO 3166-1 alpha-2 country code. */
                country?: string;
            };
            /**
             * Format: int64
             * @description For a foreign transaction: its amount in `original_currency`'s smallest unit.
             */
            original_amount?: number;
            /** @description For a foreign transaction: its ISO 4217 currency. */
            original_currency?: string;
            /** @description The last four digits of the card used. */
            card_last4?: string;
        };
        LineItemList: {
            /** @description Line items of the page, in the document's order: `posted_at`, then id. */
            data: components["schemas"]["LineItem"][];
            /** @description True when another page exists. */
            has_more: boolean;
            /** @description Opaque cursor for the next page, sent back as `starting_after`; only with more. */
            next_page_token?: string;
        };
        /** @description Where the customer stands today on a card account. */
        Account: {
            account_id: string;
            customer_id: string;
            status?: string;
            /** @description ISO 4217 currency code. */
            currency?: string;
            /**
             * Format: int64
             * @description Credit limit, in the smallest currency unit.
             */
            credit_limit?: number;
            /**
             * Format: int64
             * @description Balance today, in the smallest currency unit.
             */
            current_balance?: number;
            /**
             * Format: int64
             * @description Credit still available, in the smallest currency unit.
             */
            available_credit?: number;
            /**
             * Format: date-time
             * @description When the account was read, which is when the request was served (RFC 3339).
             */
            as_of: string;
        };
        AccountList: {
            data: components["schemas"]["Account"][];
            /** @description True when another page exists; page on with the last id. */
            has_more: boolean;
        };
        /** @description What a card earns on purchases of one kind of merchant. */
        RewardsCategory: {
            /** @description Identifier of the category, unique in its product. */
            category_id: string;
            /** @description What the cardholder is shown, such as `Dining`. */
            name: string;
            /** @description The merchant category codes (ISO 18245, four digits) the category covers; empty for the catch-all category, which covers every purchase no other category does. */
            merchant_category_codes: string[];
            /** @description What a purchase earns, as a decimal string exactly as set: `"3"`, `"1.5"`. */
            earn_rate: string;
            /**
             * @description `POINTS_PER_DOLLAR`: points per whole unit of currency spent; `PERCENT_CASH_BACK`: that percent of the amount spent, back in the statement's currency.
             * @enum {string}
             */
            earn_unit: "POINTS_PER_DOLLAR" | "PERCENT_CASH_BACK";
        };
        RewardsCategoryList: {
            /** @description Every category of the account's product, in the product's order. */
            data: components["schemas"]["RewardsCategory"][];
            /** @description Always false: the list is never paged. */
            has_more: boolean;
        };
        /** @description A customer's card, drawing on one of its card accounts. */
        PaymentMethod: {
            payment_method_id: string;
            customer_id: string;
            /** @description The card account the card draws on. */
            account_id: string;
            /** @enum {string} */
            type: "CARD";
            /** @enum {string} */
            status: "ACTIVE" | "INACTIVE" | "CANCELED";
            card: {
                /** @enum {string} */
                network: "VISA" | "MASTERCARD" | "AMEX";
                /** @enum {string} */
                card_type: "PHYSICAL" | "VIRTUAL";
                /** @description The last four digits of the card number. */
                last4: string;
                /** @description Expiry month, 1 to 12. */
                expiration_month: number;
                /** @description Expiry year, four digits. */
                expiration_year: number;
                /** @description The wallets the card was provisioned to, oldest first. */
                wallets: {
                    /** @enum {string} */
                    wallet: "apple_pay" | "google_pay" | "samsung_pay";
                    /**
                     * Format: date-time
                     * @description When the card was provisioned to the wallet (RFC 3339).
                     */
                    created_at: string;
                }[];
                /** @description Only on retrieve, and only for keys holding PCI_DETAILS_READ; such a response is `Cache-Control: no-store`, and each one is recorded in the audit log. */
                pci_details?: {
                    /** @description The full card number. */
                    pan: string;
                    /** @description The card verification value. */
                    cvv: string;
                    /** @description Expiry month, 1 to 12. */
                    expiration_month: number;
                    /** @description Expiry year, four digits. */
                    expiration_year: number;
                };
            };
            /**
             * Format: date-time
             * @description When the card was first imported (RFC 3339).
             */
            created_at: string;
        };
        PaymentMethodList: {
            data: components["schemas"]["PaymentMethod"][];
            /** @description True when another page exists; page on with the last id. */
            has_more: boolean;
        };
        Customer: {
            customer_id: string;
            /** @description Your own identifier for the customer, once linked. */
            partner_customer_id?: string;
            /** @description Only on retrieve, and only for keys holding AUTHORIZED_USER_READ. */
            authorized_users?: {
                authorized_user_id: string;
                name: string;
            }[];
        };
        CustomerList: {
            data: components["schemas"]["Customer"][];
            /** @description True when another page exists; page on with the last id. */
            has_more: boolean;
        };
        SimulatedCustomer: {
            customer_id: string;
            /** @description Your own identifier for the customer, once linked. */
            partner_customer_id?: string;
            /** @description Only on retrieve, and only for keys holding AUTHORIZED_USER_READ. */
            authorized_users?: {
                authorized_user_id: string;
                name: string;
            }[];
            /** @description The accounts it opened, as the accounts list shows them. */
            accounts: components["schemas"]["Account"][];
        };
        ApiKey: {
            key_id: string;
            /** @description The key itself; shown only in this response. */
            api_key: string;
            /** @enum {string} */
            environment: "sandbox" | "production";
            /** @description Exactly the scopes of the key that created it. */
            scopes: ("ORDER_READ" | "ORDER_WRITE" | "TRANSACTION_INTENT_READ" | "TRANSACTION_INTENT_WRITE" | "CARD_WRITE" | "ACCOUNT_READ" | "PCI_DETAILS_READ" | "AUTHORIZED_USER_READ")[];
            /**
             * Format: date-time
             * @description When the key was created (RFC 3339).
             */
            created_at: string;
            name?: string;
        };
        /** @description Every error, in one envelope. */
        ApiError: {
            error: {
                /** @enum {string} */
                type: "UNAUTHORIZED_ERROR" | "BAD_REQUEST_ERROR" | "INVALID_REQUEST_ERROR" | "FORBIDDEN_ERROR" | "NOT_FOUND_ERROR" | "CUSTOMER_NOT_FOUND_ERROR" | "ACCOUNT_NOT_FOUND_ERROR" | "STATEMENT_NOT_FOUND_ERROR" | "PAYMENT_METHOD_NOT_FOUND_ERROR" | "ORDER_NOT_FOUND_ERROR" | "ORDER_EVENT_NOT_FOUND_ERROR" | "TRANSACTION_INTENT_NOT_FOUND_ERROR" | "CONFLICT_ERROR" | "IDEMPOTENCY_KEY_IN_USE_ERROR" | "IDEMPOTENCY_KEY_REUSED_ERROR" | "PRECONDITION_FAILED_ERROR" | "PAYLOAD_TOO_LARGE_ERROR" | "UNSUPPORTED_MEDIA_TYPE_ERROR" | "RANGE_NOT_SATISFIABLE_ERROR" | "RATE_LIMITED_ERROR" | "NOT_IMPLEMENTED_ERROR" | "SERVICE_UNAVAILABLE_ERROR" | "INTERNAL_ERROR";
                message: string;
                /** @description The parameter or header at fault. */
                param?: string;
                /** @description Each problem found, for validation. */
                details?: string[];
            };
        };
        /** @description A request that failed validation; `details` lists each problem. */
        InvalidRequestError: {
            error: {
                /** @enum {string} */
                type: "INVALID_REQUEST_ERROR";
                message: string;
                /** @description The parameter or header at fault. */
                param?: string;
                /** @description Each problem found, for validation. */
                details?: string[];
            };
        };
        /** @description The customer, or the customer's account, does not exist for this key. */
        CustomerNotFoundError: {
            error: {
                /** @enum {string} */
                type: "CUSTOMER_NOT_FOUND_ERROR" | "ACCOUNT_NOT_FOUND_ERROR";
                message: string;
                /** @description The parameter or header at fault. */
                param?: string;
                /** @description Each problem found, for validation. */
                details?: string[];
            };
        };
        /** @description The statement is not one of the account's, or has been hidden. */
        StatementNotFoundError: {
            error: {
                /** @enum {string} */
                type: "STATEMENT_NOT_FOUND_ERROR";
                message: string;
                /** @description The parameter or header at fault. */
                param?: string;
                /** @description Each problem found, for validation. */
                details?: string[];
            };
        };
        /** @description The payment method is not one of this key's partner, environment and product. */
        PaymentMethodNotFoundError: {
            error: {
                /** @enum {string} */
                type: "PAYMENT_METHOD_NOT_FOUND_ERROR";
                message: string;
                /** @description The parameter or header at fault. */
                param?: string;
                /** @description Each problem found, for validation. */
                details?: string[];
            };
        };
        /** @description The order, or the order event, does not exist for this key and product. */
        OrderNotFoundError: {
            error: {
                /** @enum {string} */
                type: "ORDER_NOT_FOUND_ERROR" | "ORDER_EVENT_NOT_FOUND_ERROR";
                message: string;
                /** @description The parameter or header at fault. */
                param?: string;
                /** @description Each problem found, for validation. */
                details?: string[];
            };
        };
        /** @description The transaction intent does not exist for this key and product. */
        TransactionIntentNotFoundError: {
            error: {
                /** @enum {string} */
                type: "TRANSACTION_INTENT_NOT_FOUND_ERROR";
                message: string;
                /** @description The parameter or header at fault. */
                param?: string;
                /** @description Each problem found, for validation. */
                details?: string[];
            };
        };
        /** @description Something that happened to a statement; kept 30 days. */
        Event: {
            /** @description Unique identifier; the `webhook-id` of its deliveries. */
            event_id: string;
            /**
             * @description `statement.created`: a closed statement became readable. `statement.pdf_available`: its PDF can now be linked. `statement.hidden`: the statement left every read. `statement.restated`: a correction replaced the statement (`data.statement.restated_by` names it); the correction announces itself with `statement.created`.
             * @enum {string}
             */
            type: "statement.created" | "statement.pdf_available" | "statement.hidden" | "statement.restated";
            /**
             * Format: date-time
             * @description When the change happened (RFC 3339).
             */
            created_at: string;
            /** @description `statement` is the statement as it reads when the event is read or delivered: `as_of` and the PDF link are that moment's; a statement hidden since shows its identifiers only. */
            data: {
                statement: components["schemas"]["Statement"];
            };
        };
        EventList: {
            /** @description Events of the page, newest first. */
            data: components["schemas"]["Event"][];
            /** @description True when another page exists. */
            has_more: boolean;
            /** @description Opaque cursor for the next page, sent back as `starting_after`; only with more. */
            next_page_token?: string;
        };
        EventResend: {
            event_id: string;
            /** @description The endpoints the event is queued for, at once. */
            webhook_endpoint_ids: string[];
        };
        /** @description An HTTPS endpoint that receives this product's statement events, signed. */
        WebhookEndpoint: {
            webhook_endpoint_id: string;
            /**
             * Format: uri
             * @description Where events are posted.
             */
            url: string;
            description?: string;
            /** @description The API version of every payload sent here, pinned when the endpoint was made. */
            api_version: string;
            /** @description The event types it receives, as its `api_version` names them (`GET /v2/event_types` in that version lists them), or `["*"]` for every type, present and future (the default). */
            enabled_events: string[];
            /**
             * @description `disabled` after failing for days on end; enable it again once fixed.
             * @enum {string}
             */
            status: "enabled" | "disabled";
            /**
             * Format: date-time
             * @description When it was disabled (RFC 3339).
             */
            disabled_at?: string;
            disabled_reason?: string;
            /**
             * Format: date-time
             * @description When the endpoint was created (RFC 3339).
             */
            created_at: string;
            /** @description How the endpoint has fared lately. Its Admins are mailed when it starts failing, a day before it would be disabled, and when it is disabled. */
            health: {
                /** @description Attempts counted: its latest, at most 100, of the last 24 hours. */
                recent_attempts: number;
                /** @description The share of those that succeeded, 0 to 1; omitted when there were none. */
                recent_success_rate?: number;
                /** @description Failed attempts in a row since its last success (or since it was enabled). */
                failure_streak: number;
                /**
                 * Format: date-time
                 * @description When the current run of failed attempts began; omitted while it is not failing (RFC 3339).
                 */
                failing_since?: string;
                /**
                 * Format: date-time
                 * @description When it will be disabled if every attempt keeps failing; only while enabled and failing (RFC 3339).
                 */
                disables_at?: string;
            };
            /** @description The signing secret (`whsec_…`): only in the responses that create or roll it. Keep it. */
            secret?: string;
            /**
             * Format: date-time
             * @description Until when the secret replaced by a roll still signs deliveries beside the new one (RFC 3339).
             */
            previous_secret_expires_at?: string;
        };
        WebhookEndpointList: {
            data: components["schemas"]["WebhookEndpoint"][];
            /** @description True when another page exists; page on with the last id. */
            has_more: boolean;
        };
        /** @description The events of the endpoint's types in the window that it has not received, queued once each in the order they happened, through its delivery throttle (10 deliveries a second). */
        WebhookEndpointRecovery: {
            webhook_endpoint_id: string;
            /**
             * Format: date-time
             * @description The start of the window (inclusive) (RFC 3339).
             */
            since: string;
            /**
             * Format: date-time
             * @description The end of the window (exclusive) (RFC 3339).
             */
            until: string;
            /** @description Events queued for delivery to the endpoint, in the order they happened. */
            queued: number;
            /** @description True when the window holds more events than one call queues (10,000): call again with the same window to queue the next ones. */
            has_more: boolean;
        };
        EventTypeList: {
            data: {
                /** @description The type, as this API version names it. */
                type: string;
                /** @description What an event of this type announces. */
                description: string;
            }[];
            /** @description True when another page exists; page on with the last id. */
            has_more: boolean;
        };
        DeliveryAttempt: {
            attempt_id: string;
            event_id: string;
            webhook_endpoint_id: string;
            /**
             * Format: date-time
             * @description When the attempt started (RFC 3339).
             */
            attempted_at: string;
            /** @description How long the endpoint took to answer. */
            duration_ms: number;
            /**
             * @description `succeeded` on a 2xx answer; redirects are not followed and count as failed.
             * @enum {string}
             */
            status: "succeeded" | "failed" | "timed_out";
            /**
             * Format: int64
             * @description The endpoint's HTTP status, when it answered.
             */
            response_status?: number;
            /** @description Why the attempt failed, when it did. */
            error?: string;
        };
        DeliveryAttemptList: {
            data: components["schemas"]["DeliveryAttempt"][];
            /** @description True when another page exists; page on with the last id. */
            has_more: boolean;
        };
        /** @description A card's data encrypted for one wallet, to add it there from your app. */
        PaymentMethodProvisioning: {
            payment_method_id: string;
            /** @enum {string} */
            wallet: "apple_pay" | "google_pay" | "samsung_pay";
            /** @description What the app hands the wallet: Apple Pay's three fields, or the opaque card. */
            provisioning: {
                /** @description Apple Pay: hand to PassKit as `activationData` (standard base64). */
                activation_data?: string;
                /** @description Apple Pay: the card, readable only with the leaf certificate's private key; hand to PassKit as `encryptedPassData` (standard base64). */
                encrypted_pass_data?: string;
                /** @description Apple Pay: the uncompressed P-256 point (65 bytes) the pass data was encrypted with; hand to PassKit as `ephemeralPublicKey` (standard base64). */
                ephemeral_public_key?: string;
                /** @description Google Pay and Samsung Pay: the card as a compact JWE (ECDH-ES, A256GCM) to the wallet provider's key; hand to the wallet's push provisioning call as is. */
                opaque_payment_card?: string;
            };
        };
        /** @description A purchase at your checkout, paid with one of the programme's cards. */
        Order: {
            order_id: string;
            /** @description Your identifier for the order. */
            partner_order_id: string;
            customer_id: string;
            /** @description The card it was paid with. */
            payment_method_id?: string;
            /** @description ISO 4217 currency code. */
            currency: string;
            /**
             * Format: int64
             * @description The order's total, in the smallest currency unit.
             */
            total_amount: number;
            /**
             * Format: int64
             * @description The rewards the order earns.
             */
            rewards_amount?: number;
            merchant?: components["schemas"]["Merchant"];
            lines: components["schemas"]["OrderLine"][];
            /**
             * Format: int64
             * @description The sum of the order's CAPTURED events.
             */
            captured_amount: number;
            /**
             * Format: int64
             * @description The sum of the order's REFUNDED events.
             */
            refunded_amount: number;
            /**
             * Format: date-time
             * @description When the order was created (RFC 3339).
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the order or its sums last changed (RFC 3339).
             */
            updated_at: string;
        };
        OrderList: {
            data: components["schemas"]["Order"][];
            /** @description True when another page exists; page on with the last id. */
            has_more: boolean;
        };
        /** @description A capture or refund of an order, matched to the card network's transaction. */
        OrderEvent: {
            order_event_id: string;
            order_id: string;
            /** @enum {string} */
            type: "CAPTURED" | "REFUNDED";
            /**
             * Format: int64
             * @description In the smallest currency unit.
             */
            amount: number;
            /** @description The order's currency. */
            currency: string;
            /** @description The card network's transaction id. */
            network_transaction_id: string;
            /** @description Your identifier for the event. */
            partner_event_id?: string;
            /** Format: int64 */
            rewards_amount?: number;
            /**
             * Format: date-time
             * @description When the event was recorded (RFC 3339).
             */
            created_at: string;
        };
        OrderEventList: {
            data: components["schemas"]["OrderEvent"][];
            /** @description True when another page exists; page on with the last id. */
            has_more: boolean;
        };
        /** @description Where the purchase was made. */
        Merchant: {
            /** @description The merchant's name. */
            name: string;
            /** @description The merchant category code (MCC), four digits. */
            category_code?: string;
            city?: string;
            /** @description ISO 3166-1 alpha-2 country code. */
            country?: string;
        };
        /** @description One line of an order. */
        OrderLine: {
            /** @description What was bought. */
            name: string;
            quantity: number;
            /** @description The price of one, in the smallest currency unit. */
            unit_amount: number;
            /** @description The rewards this line earns, in the smallest currency unit. */
            rewards_amount?: number;
            /** Format: uri */
            product_url?: string;
        };
        /** @description A card transaction you expect before it arrives: you confirm or cancel it, and it is matched to the transaction later. */
        TransactionIntent: {
            intent_id: string;
            customer_id: string;
            payment_method_id?: string;
            /**
             * Format: int64
             * @description In the smallest currency unit.
             */
            amount: number;
            /** @description ISO 4217 currency code. */
            currency: string;
            /** @enum {string} */
            status: "REQUIRES_CONFIRMATION" | "CONFIRMED" | "CANCELED";
            network_transaction_id?: string;
            partner_transaction_id?: string;
            /** Format: date */
            expected_date?: string;
            merchant?: components["schemas"]["Merchant"];
            metadata: {
                [key: string]: string;
            };
            /**
             * Format: date-time
             * @description When the intent was created (RFC 3339).
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the intent last changed (RFC 3339).
             */
            updated_at: string;
        };
        TransactionIntentList: {
            data: components["schemas"]["TransactionIntent"][];
            /** @description True when another page exists; page on with the last id. */
            has_more: boolean;
        };
        SimulatePaymentMethodRequest: {
            /** @description A sandbox customer of the key's product. */
            customer_id: string;
            /** @description One of that customer's accounts. */
            account_id: string;
            /**
             * @description The card's network, whose test range its PAN is on; `VISA` when omitted.
             * @enum {string}
             */
            network?: "VISA" | "MASTERCARD" | "AMEX";
            /**
             * @description `VIRTUAL` when omitted.
             * @enum {string}
             */
            card_type?: "PHYSICAL" | "VIRTUAL";
            /**
             * @description `ACTIVE` when omitted.
             * @enum {string}
             */
            status?: "ACTIVE" | "INACTIVE" | "CANCELED";
        };
        CustomerLinkRequest: {
            /** @description Your identifier for the customer. */
            partner_customer_id: string;
        };
        CreateKeyRequest: {
            /** @description A label for the key. */
            name?: string;
        };
        CreateWebhookEndpointRequest: {
            /** @description An https URL of a public host. No credentials; no redirects are followed. */
            url: string;
            description?: string;
            /** @description The version payloads are shaped in; by default, this request's version. */
            api_version?: string;
            /** @description The event types it receives, as its `api_version` names them (`GET /v2/event_types` in that version lists them), or `["*"]` for every type, present and future (the default). */
            enabled_events?: string[];
        };
        UpdateWebhookEndpointRequest: {
            /** @description An https URL of a public host. No credentials; no redirects are followed. */
            url?: string;
            /** @description A label for the endpoint; an empty string removes it. */
            description?: string;
            /** @description The event types it receives, as its `api_version` names them (`GET /v2/event_types` in that version lists them), or `["*"]` for every type, present and future (the default). */
            enabled_events?: string[];
        };
        RecoverWebhookEndpointRequest: {
            /**
             * Format: date-time
             * @description Recover events created at or after this instant (RFC 3339), within the 30 days events are kept.
             */
            since: string;
            /**
             * Format: date-time
             * @description …and before this instant (RFC 3339); by default, now.
             */
            until?: string;
        };
        RollWebhookEndpointSecretRequest: {
            /** @description Seconds the replaced secret keeps signing beside the new one, so receivers can switch without losing a delivery; 0 stops it at once. Default 86400 (24 hours). */
            previous_secret_expires_in?: number;
        };
        ResendEventRequest: {
            /** @description Send to this endpoint only; by default, to every enabled endpoint. */
            webhook_endpoint_id?: string;
        };
        SimulateCustomerRequest: {
            /** @description Your identifier for the customer, linked from the start. */
            partner_customer_id?: string;
            /** @description The account's ISO 4217 currency; `USD` when omitted. */
            currency?: string;
            /** @description The account's credit limit in the smallest currency unit; `500000` when omitted. */
            credit_limit?: number;
        };
        SimulateStatementRequest: {
            /** @description A sandbox customer of the key's product. */
            customer_id: string;
            /** @description One of that customer's accounts. */
            account_id: string;
            /**
             * Format: date-time
             * @description When the cycle closes; by default a month after the account's newest statement closed (RFC 3339).
             */
            period_end_date?: string;
            /**
             * Format: date-time
             * @description When payment is due; by default 25 days after the cycle closes (RFC 3339).
             */
            due_date?: string;
            /** @description Purchases of the cycle. Positive. */
            purchases?: number;
            /** @description Payments received in the cycle. Negative. */
            payments?: number;
            /** @description Credits applied in the cycle. Negative. */
            credits?: number;
            /** @description Refunds posted in the cycle. Negative. */
            refunds?: number;
            /** @description Interest charged in the cycle. Positive. */
            interest?: number;
            /** @description Fees charged in the cycle. Positive. */
            fees?: number;
            /** @description Minimum payment due; by default worked out. */
            minimum_due?: number;
            /** @description Portion already past due; by default 0. */
            overdue_amount?: number;
            /** @description The cycle's transactions. The totals are their sums per type (a total sent beside them must equal it); without them, line items that add up to the totals are made up: purchases at merchants with their category codes, the payment, refunds and credits, the interest an APR charged. */
            line_items?: {
                /** @description Unique in the statement. */
                line_item_id: string;
                /** @enum {string} */
                type: "PURCHASE" | "PAYMENT" | "CREDIT" | "REFUND" | "INTEREST" | "FEE";
                /**
                 * Format: date-time
                 * @description When it posted: inside the cycle (RFC 3339).
                 */
                posted_at: string;
                /**
                 * Format: date-time
                 * @description When it happened (RFC 3339).
                 */
                transaction_date?: string;
                /** @description As the cardholder sees it. */
                description: string;
                /** @description In the card-statement sign: `PURCHASE`, `INTEREST`, `FEE` ≥ 0; `PAYMENT`, `CREDIT`, `REFUND` ≤ 0. */
                amount: number;
                merchant?: {
                    name: string;
                    category_code: string;
                    city?: string;
                    country?: string;
                };
                original_amount?: number;
                original_currency?: string;
                card_last4?: string;
            }[];
        };
        /** @description Apple Pay takes `certificates`, `nonce` and `nonce_signature`; Google Pay and Samsung Pay take `client_device_id` and `client_wallet_account_id`. Each wallet's fields are required for it, and the other wallet's are refused. */
        PaymentMethodProvisionRequest: {
            /** @description Apple Pay: the certificates PassKit handed the app, each standard base64 of its DER, the leaf first (the leaf alone is enough). */
            certificates?: string[];
            /** @description Apple Pay: the nonce PassKit handed the app, standard base64. */
            nonce?: string;
            /** @description Apple Pay: the nonce's signature PassKit handed the app, standard base64. */
            nonce_signature?: string;
            /** @description Google Pay and Samsung Pay: the wallet's id of the device. */
            client_device_id?: string;
            /** @description Google Pay and Samsung Pay: the wallet's id of the cardholder's account. */
            client_wallet_account_id?: string;
        };
        OrderRequest: {
            /** @description Your identifier for the order: unique per product; cannot change. */
            partner_order_id: string;
            /** @description Cannot change. */
            customer_id: string;
            /** @description ISO 4217 currency code; cannot change. */
            currency: string;
            /** @description The order's total; never below what was captured, in the smallest currency unit. */
            total_amount: number;
            /** @description One of the customer's cards. */
            payment_method_id?: string;
            /** @description The rewards the order earns, in the smallest currency unit. */
            rewards_amount?: number;
            merchant?: components["schemas"]["Merchant"];
            /** @description At most 100; Σ quantity × unit_amount must equal total_amount. On update, the lines sent replace the order's (none sent: none kept). */
            lines?: components["schemas"]["OrderLine"][];
        };
        OrderEventRequest: {
            order_id: string;
            /** @enum {string} */
            type: "CAPTURED" | "REFUNDED";
            /** @description More than zero. Captures never pass the order's total_amount; refunds never pass its captures, in the smallest currency unit. */
            amount: number;
            /** @description The card network's transaction id. */
            network_transaction_id: string;
            /** @description Your identifier for the event: unique per product. */
            partner_event_id?: string;
            /** @description The rewards the event earns or takes back, in the smallest currency unit. */
            rewards_amount?: number;
        };
        CreateTransactionIntentRequest: {
            customer_id: string;
            /** @description More than zero, in the smallest currency unit. */
            amount: number;
            /** @description ISO 4217 currency code. */
            currency: string;
            /** @description One of the customer's cards. */
            payment_method_id?: string;
            /** @description The card network's transaction id, when known. */
            network_transaction_id?: string;
            /**
             * Format: date
             * @description When you expect the transaction.
             */
            expected_date?: string;
            merchant?: components["schemas"]["Merchant"];
            /** @description Your own strings: at most 20 keys of up to 40 characters, values of up to 500. */
            metadata?: {
                [key: string]: string;
            };
        };
        UpdateTransactionIntentRequest: {
            /**
             * @description REQUIRES_CONFIRMATION → CONFIRMED or CANCELED; CONFIRMED → CANCELED. Any other change answers 409.
             * @enum {string}
             */
            status?: "CONFIRMED" | "CANCELED";
            /** @description More than zero; cannot change once confirmed, in the smallest currency unit. */
            amount?: number;
            /** @description The card network's transaction id. */
            network_transaction_id?: string;
            /** @description Your identifier for the transaction. */
            partner_transaction_id?: string;
            /** @description Replaces the intent's metadata. */
            metadata?: {
                [key: string]: string;
            };
        };
    };
    responses: {
        /** @description Invalid input (`INVALID_REQUEST_ERROR`); or, as `BAD_REQUEST_ERROR`, an unsupported `x-service-version` (sent without the version header) or a `x-service-merchant-key` that names none of your products. */
        InvalidRequest: {
            headers: {
                "x-service-version": components["headers"]["Version"];
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["InvalidRequestError"] | components["schemas"]["ApiError"];
            };
        };
        /** @description Missing, malformed, unknown or revoked API key. No version header. */
        Unauthorized: {
            headers: {
                /** @description The schemes the API accepts: Basic and Bearer. */
                "WWW-Authenticate"?: string;
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description The key lacks the required scope: type `FORBIDDEN_ERROR`. */
        Forbidden: {
            headers: {
                "x-service-version": components["headers"]["Version"];
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description No such customer for this key and product, or the account is not the customer's. */
        CustomerNotFound: {
            headers: {
                "x-service-version": components["headers"]["Version"];
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["CustomerNotFoundError"];
            };
        };
        /** @description No such customer for this key and product, the account is not the customer's, or the statement is not the account's (or has been hidden): `param` names the id. */
        StatementNotFound: {
            headers: {
                "x-service-version": components["headers"]["Version"];
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["CustomerNotFoundError"] | components["schemas"]["StatementNotFoundError"];
            };
        };
        /** @description No such payment method for this key and product: type `PAYMENT_METHOD_NOT_FOUND_ERROR`, `param` names the id. */
        PaymentMethodNotFound: {
            headers: {
                "x-service-version": components["headers"]["Version"];
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["PaymentMethodNotFoundError"];
            };
        };
        /** @description No such object for this key and product: type `NOT_FOUND_ERROR`, `param` names the id. */
        NotFound: {
            headers: {
                "x-service-version": components["headers"]["Version"];
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description No such customer for this key and product: type `CUSTOMER_NOT_FOUND_ERROR`, `param` names the field. */
        CustomerOfBodyNotFound: {
            headers: {
                "x-service-version": components["headers"]["Version"];
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["CustomerNotFoundError"];
            };
        };
        /** @description No such order for this key and product: type `ORDER_NOT_FOUND_ERROR`, `param` names the field. */
        OrderNotFound: {
            headers: {
                "x-service-version": components["headers"]["Version"];
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OrderNotFoundError"];
            };
        };
        /** @description No such order event for this key and product: type `ORDER_EVENT_NOT_FOUND_ERROR`. */
        OrderEventNotFound: {
            headers: {
                "x-service-version": components["headers"]["Version"];
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OrderNotFoundError"];
            };
        };
        /** @description No such transaction intent for this key and product: type `TRANSACTION_INTENT_NOT_FOUND_ERROR`. */
        TransactionIntentNotFound: {
            headers: {
                "x-service-version": components["headers"]["Version"];
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["TransactionIntentNotFoundError"];
            };
        };
        /** @description The request conflicts with the object's state (type `CONFLICT_ERROR`, the message names what conflicts), or a request with this `Idempotency-Key` is still running (type `IDEMPOTENCY_KEY_IN_USE_ERROR`; retry after the delay). */
        ConflictOrIdempotencyKeyInUse: {
            headers: {
                "x-service-version": components["headers"]["Version"];
                "x-request-id": components["headers"]["RequestId"];
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description A request with this `Idempotency-Key` is still running: type `IDEMPOTENCY_KEY_IN_USE_ERROR`; retry after the delay. */
        IdempotencyKeyInUse: {
            headers: {
                "x-service-version": components["headers"]["Version"];
                "x-request-id": components["headers"]["RequestId"];
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description This `Idempotency-Key` was used with another request in the last 24 hours: type `IDEMPOTENCY_KEY_REUSED_ERROR`; use a new key for a new request. */
        IdempotencyKeyReused: {
            headers: {
                "x-service-version": components["headers"]["Version"];
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description An unexpected failure: type `INTERNAL_ERROR`. */
        InternalError: {
            headers: {
                "x-service-version": components["headers"]["Version"];
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description Too many requests: type `RATE_LIMITED_ERROR`. Each API key has its own limit, and all the keys of your partner in an environment share one (see `RateLimit-Policy`); an address that fails authentication too often has its further failures answered so for a while (that answer carries no `x-service-version`), while valid keys from it are served. Wait `Retry-After` seconds before retrying. */
        RateLimited: {
            headers: {
                "x-service-version": components["headers"]["Version"];
                "x-request-id": components["headers"]["RequestId"];
                "Retry-After": components["headers"]["RetryAfter"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description Storage is briefly unavailable: type `SERVICE_UNAVAILABLE_ERROR`; retry after the delay. */
        ServiceUnavailable: {
            headers: {
                "x-service-version": components["headers"]["Version"];
                "x-request-id": components["headers"]["RequestId"];
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
    };
    parameters: {
        /**
         * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
         * @example latest
         */
        Version: "latest" | "2026-11-28" | "2026-10-13" | "2025-05-05";
        /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
        IdempotencyKey: string;
        /** @description The product to read, as supplied at onboarding. Required when you have several. */
        MerchantKey: string;
    };
    requestBodies: never;
    headers: {
        /** @description The API version that shaped this response. */
        Version: "latest";
        /** @description Identifies the request in the service's logs. */
        RequestId: string;
        /** @description `true` when this is the stored response of an earlier request. */
        Replayed: "true";
        /** @description Seconds to wait before retrying. */
        RetryAfter: string;
        /** @description The quotas that apply, as the IETF RateLimit header fields draft writes them: `"api-key";q=1000;w=10, "partner";q=5000;w=10` is 1000 requests per 10-second window for each API key, and 5000 for all the keys of your partner in the environment. */
        RateLimitPolicy: string;
        /** @description What is left of the quota: `"api-key";r=0;t=10` says none, for up to 10 seconds. */
        RateLimit: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listOrders: {
        parameters: {
            query?: {
                /** @description Maximum number of objects returned. */
                limit?: number;
                /** @description The id of the last object of the previous page. */
                starting_after?: string;
                /** @description Only this customer's orders. */
                customer_id?: string;
                /** @description Only the order with your own id. */
                partner_order_id?: string;
            };
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createOrder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrderRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["CustomerOfBodyNotFound"];
            409: components["responses"]["ConflictOrIdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listOrderEvents: {
        parameters: {
            query?: {
                /** @description Maximum number of objects returned. */
                limit?: number;
                /** @description The id of the last object of the previous page. */
                starting_after?: string;
                /** @description Only this order's events. */
                order_id?: string;
                /** @description Only the events of this network transaction. */
                network_transaction_id?: string;
                /** @description Only the event with your own id. */
                partner_event_id?: string;
            };
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderEventList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createOrderEvent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrderEventRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderEvent"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["OrderNotFound"];
            409: components["responses"]["ConflictOrIdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateOrder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `order_id` of the order. */
                order_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrderRequest"];
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["OrderNotFound"];
            409: components["responses"]["ConflictOrIdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteOrder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `order_id` of the order. */
                order_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done. */
            204: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["OrderNotFound"];
            409: components["responses"]["ConflictOrIdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteOrderEvent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `order_event_id` of the order event. */
                order_event_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done. */
            204: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["OrderEventNotFound"];
            409: components["responses"]["ConflictOrIdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveTransactionIntent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `intent_id` of the intent. */
                intent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransactionIntent"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["TransactionIntentNotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateTransactionIntent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `intent_id` of the intent. */
                intent_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateTransactionIntentRequest"];
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransactionIntent"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["TransactionIntentNotFound"];
            409: components["responses"]["ConflictOrIdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listCustomerTransactionIntents: {
        parameters: {
            query?: {
                /** @description Maximum number of objects returned. */
                limit?: number;
                /** @description The id of the last object of the previous page. */
                starting_after?: string;
                /** @description Only the intents in this status. */
                status?: "REQUIRES_CONFIRMATION" | "CONFIRMED" | "CANCELED";
            };
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `customer_id` of the customer. */
                customer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransactionIntentList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["CustomerOfBodyNotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createTransactionIntent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTransactionIntentRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransactionIntent"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["CustomerOfBodyNotFound"];
            409: components["responses"]["IdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listPaymentMethods: {
        parameters: {
            query: {
                /** @description The customer whose cards are listed. */
                customer_id: string;
                /** @description Only cards of this status; every status when absent. */
                status?: "ACTIVE" | "INACTIVE" | "CANCELED";
                /** @description Maximum number of objects returned. */
                limit?: number;
                /** @description The id of the last object of the previous page. */
                starting_after?: string;
            };
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentMethodList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["CustomerNotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrievePaymentMethod: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `payment_method_id` of the payment method. */
                payment_method_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentMethod"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["PaymentMethodNotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    provisionPaymentMethodToWallet: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `payment_method_id` of the payment method. */
                payment_method_id: string;
                /** @description The `wallet` of the wallet. */
                wallet: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentMethodProvisionRequest"];
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentMethodProvisioning"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["PaymentMethodNotFound"];
            409: components["responses"]["IdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listCustomerAccounts: {
        parameters: {
            query?: {
                /** @description Maximum number of objects returned. */
                limit?: number;
                /** @description The id of the last object of the previous page. */
                starting_after?: string;
            };
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `customer_id` of the customer. */
                customer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["CustomerNotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveAccount: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `customer_id` of the customer. */
                customer_id: string;
                /** @description The `account_id` of the account. */
                account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["CustomerNotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listAccountRewardsCategories: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `customer_id` of the customer. */
                customer_id: string;
                /** @description The `account_id` of the account. */
                account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RewardsCategoryList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["CustomerNotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listAccountStatements: {
        parameters: {
            query?: {
                /** @description Maximum number of objects returned. */
                limit?: number;
                /** @description The `next_page_token` of the previous page: an opaque cursor, not an object id. */
                starting_after?: string;
                /** @description Only statements whose `period_end_date` is at or after this instant (inclusive). An RFC 3339 timestamp, e.g. `2026-01-01T00:00:00Z`. Page tokens are bound to the filters: send the same ones with `starting_after`. */
                period_end_date_gte?: string;
                /** @description Only statements whose `period_end_date` is before this instant (exclusive). An RFC 3339 timestamp; must be later than `period_end_date_gte` when both are sent. */
                period_end_date_lt?: string;
            };
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `customer_id` of the customer. */
                customer_id: string;
                /** @description The `account_id` of the account. */
                account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatementList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["CustomerNotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveStatement: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `customer_id` of the customer. */
                customer_id: string;
                /** @description The `account_id` of the account. */
                account_id: string;
                /** @description The `statement_id` of the statement. */
                statement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Statement"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["StatementNotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listStatementLineItems: {
        parameters: {
            query?: {
                /** @description Maximum number of objects returned. */
                limit?: number;
                /** @description The `next_page_token` of the previous page: an opaque cursor, not an object id. */
                starting_after?: string;
                /** @description Only line items of these types: one or more of `PURCHASE`, `PAYMENT`, `CREDIT`, `REFUND`, `INTEREST`, `FEE`, comma-separated (`type=PURCHASE,REFUND`). Page tokens are bound to the filter: send the same one with `starting_after`. */
                type?: string;
            };
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `customer_id` of the customer. */
                customer_id: string;
                /** @description The `account_id` of the account. */
                account_id: string;
                /** @description The `statement_id` of the statement. */
                statement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LineItemList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["StatementNotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listCustomers: {
        parameters: {
            query?: {
                /** @description Maximum number of objects returned. */
                limit?: number;
                /** @description The id of the last object of the previous page. */
                starting_after?: string;
            };
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveCustomer: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `customer_id` of the customer. */
                customer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["CustomerNotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    linkPartnerCustomerId: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `customer_id` of the customer. */
                customer_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerLinkRequest"];
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["CustomerNotFound"];
            409: components["responses"]["IdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateKeyRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["IdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Maximum number of objects returned. */
                limit?: number;
                /** @description The `next_page_token` of the previous page: an opaque cursor, not an object id. */
                starting_after?: string;
                /** @description Only events of these types, as this API version names them (`GET /v2/event_types`): one, or several separated by commas (`statement.created,statement.hidden`). */
                type?: string;
            };
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveEvent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `event_id` of the event. */
                event_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Event"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listEventDeliveryAttempts: {
        parameters: {
            query?: {
                /** @description Maximum number of objects returned. */
                limit?: number;
                /** @description The id of the last object of the previous page. */
                starting_after?: string;
            };
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `event_id` of the event. */
                event_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryAttemptList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    resendEvent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `event_id` of the event. */
                event_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ResendEventRequest"];
            };
        };
        responses: {
            /** @description Accepted. */
            202: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventResend"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["ConflictOrIdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listEventTypes: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventTypeList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description Maximum number of objects returned. */
                limit?: number;
                /** @description The id of the last object of the previous page. */
                starting_after?: string;
            };
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookEndpointRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["IdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `webhook_endpoint_id` of the webhook endpoint. */
                webhook_endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `webhook_endpoint_id` of the webhook endpoint. */
                webhook_endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookEndpointRequest"];
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["IdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `webhook_endpoint_id` of the webhook endpoint. */
                webhook_endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done. */
            204: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["IdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rollWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `webhook_endpoint_id` of the webhook endpoint. */
                webhook_endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RollWebhookEndpointSecretRequest"];
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["IdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    enableWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `webhook_endpoint_id` of the webhook endpoint. */
                webhook_endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["IdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    recoverWebhookEndpointMissedEvents: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path: {
                /** @description The `webhook_endpoint_id` of the webhook endpoint. */
                webhook_endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecoverWebhookEndpointRequest"];
            };
        };
        responses: {
            /** @description Accepted. */
            202: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointRecovery"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["ConflictOrIdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createSandboxCustomer: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SimulateCustomerRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SimulatedCustomer"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["IdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    closeSandboxBillingCycle: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SimulateStatementRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Statement"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["CustomerNotFound"];
            409: components["responses"]["IdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createSandboxPaymentMethod: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The API version for this request; without it, the version saved for your key's environment. `latest` is for sandbox keys only.
                 * @example latest
                 */
                "x-service-version"?: components["parameters"]["Version"];
                /** @description Makes the request safe to retry: the same key with the same request (method, path, version, product and body) within 24 hours answers the first response again, marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to the API key that sends them: the same key from another API key runs as a request of its own. Use a new random one (a UUID) per request. A key is 1 to 255 characters, each a printable ASCII character other than space (0x21 to 0x7E: letters, digits and punctuation); any other answers `400`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The product to read, as supplied at onboarding. Required when you have several. */
                "x-service-merchant-key"?: components["parameters"]["MerchantKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SimulatePaymentMethodRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "x-service-version": components["headers"]["Version"];
                    "x-request-id": components["headers"]["RequestId"];
                    "Idempotent-Replayed": components["headers"]["Replayed"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentMethod"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["CustomerNotFound"];
            409: components["responses"]["IdempotencyKeyInUse"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    receiveStatementCreated: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every retry and re-send. */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of id.timestamp.body>` per live secret, space-separated. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"];
            };
        };
        responses: {
            /** @description Received; any other answer is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    receiveStatementPdfAvailable: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every retry and re-send. */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of id.timestamp.body>` per live secret, space-separated. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"];
            };
        };
        responses: {
            /** @description Received; any other answer is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    receiveStatementHidden: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every retry and re-send. */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of id.timestamp.body>` per live secret, space-separated. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"];
            };
        };
        responses: {
            /** @description Received; any other answer is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    receiveStatementRestated: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every retry and re-send. */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of id.timestamp.body>` per live secret, space-separated. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"];
            };
        };
        responses: {
            /** @description Received; any other answer is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
