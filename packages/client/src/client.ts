// The typed client: every call pinned to one API version, typed by that version's reference,
// lists as async iterators, writes made safe to retry, and errors thrown as typed classes.
import createFetchClient, { type Client as FetchClient } from "openapi-fetch";
import { errorFromResponse } from "./errors.ts";
import { byLastId, byToken, everyItem } from "./paginate.ts";
import { type RetryOptions, retryingFetch } from "./retry.ts";
import type {
  Account,
  ApiKey,
  Customer,
  DeliveryAttempt,
  Event,
  EventResend,
  EventType,
  LineItem,
  LineItemList,
  Order,
  OrderEvent,
  Paths,
  PaymentMethod,
  PaymentMethodProvisioning,
  SimulatedCustomer,
  Statement,
  StatementList,
  TransactionIntent,
  Version,
  WebhookEndpoint,
  WebhookEndpointRecovery,
} from "./types.ts";

export interface ClientOptions<V extends Version> {
  /** `sk_sandbox_…` or `sk_live_…`. */
  apiKey: string;
  /** The API version every request is made in, and every response typed by. */
  version: V;
  /** E.g. `https://api.example.com`, without `/v2`. */
  baseUrl: string;
  /** The product to read, when the partner has several. */
  merchantKey?: string;
  /** The brand word of the header names (`x-<brand>-version`). Default `service`. */
  brand?: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  retry?: RetryOptions;
}

/** Per-call options of a write (POST, PUT or DELETE). */
export interface PostOptions {
  /** The Idempotency-Key; by default a new UUID per call, kept across its retries. */
  idempotencyKey?: string;
}

// Paths and their parameters are the same in every version; response bodies differ and are typed
// per version below. The requests are typed by one reference (the newest).
type RequestPaths = Paths<"latest">;

/** The JSON body a POST of the newest reference takes. */
type RequestBody<P extends keyof RequestPaths> = RequestPaths[P] extends {
  post: { requestBody?: { content: { "application/json": infer B } } };
}
  ? B
  : never;

export type ListQuery = { limit?: number };
export type EventQuery = ListQuery & {
  /** Only events of these types, as the client's version names them. */
  type?: string | readonly string[];
};
export type PaymentMethodQuery = ListQuery & {
  /** Only cards of this status. */
  status?: "ACTIVE" | "INACTIVE" | "CANCELED";
};
export type StatementQuery = ListQuery & {
  /** Only statements whose period_end_date is at or after this RFC 3339 instant. */
  period_end_date_gte?: string;
  /** Only statements whose period_end_date is before this RFC 3339 instant. */
  period_end_date_lt?: string;
};

export type LineItemQuery = ListQuery & {
  /** Only line items of these types (`PURCHASE`, `PAYMENT`, `CREDIT`, `REFUND`, `INTEREST`, `FEE`). */
  type?: string | readonly string[];
};

export type OrderQuery = ListQuery & { customer_id?: string; partner_order_id?: string };
export type OrderEventQuery = ListQuery & {
  order_id?: string;
  network_transaction_id?: string;
  partner_event_id?: string;
};
export type TransactionIntentQuery = ListQuery & {
  status?: "REQUIRES_CONFIRMATION" | "CONFIRMED" | "CANCELED";
};

/** The JSON body a PUT of the newest reference takes. */
type PutBody<P extends keyof RequestPaths> = RequestPaths[P] extends {
  put: { requestBody?: { content: { "application/json": infer B } } };
}
  ? B
  : never;

export function createClient<V extends Version>(options: ClientOptions<V>) {
  const brand = options.brand ?? "service";
  const headers: Record<string, string> = {
    authorization: `Bearer ${options.apiKey}`,
    [`x-${brand}-version`]: options.version,
  };
  if (options.merchantKey !== undefined) headers[`x-${brand}-merchant-key`] = options.merchantKey;
  const http: FetchClient<RequestPaths> = createFetchClient<RequestPaths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers,
    fetch: retryingFetch(options.fetch ?? globalThis.fetch.bind(globalThis), options.retry),
  });
  // Every write (POST, PUT, DELETE) carries an Idempotency-Key, so its retries never act twice.
  http.use({
    onRequest({ request }) {
      const write = request.method !== "GET" && request.method !== "HEAD";
      if (write && !request.headers.has("idempotency-key")) {
        request.headers.set("idempotency-key", crypto.randomUUID());
      }
      return request;
    },
  });

  /** The body of a 2xx, or the typed error of anything else. */
  async function unwrap<T>(call: Promise<{ data?: unknown; error?: unknown; response: Response }>) {
    const { data, error, response } = await call;
    if (!response.ok) {
      throw errorFromResponse(response.status, error, response.headers.get("x-request-id"));
    }
    return data as T;
  }
  const post = (o?: PostOptions) =>
    o?.idempotencyKey ? { headers: { "idempotency-key": o.idempotencyKey } } : {};

  type S = Statement<V>;
  return {
    /** The underlying openapi-fetch client, for anything the helpers below do not cover. */
    http,
    version: options.version,

    statements: {
      /** Every statement of an account, newest first, across as many pages as it takes. */
      list(customerId: string, accountId: string, query: StatementQuery = {}): AsyncGenerator<S> {
        return everyItem<S>(
          (startingAfter) =>
            this.page(customerId, accountId, { ...query, starting_after: startingAfter }),
          byToken,
        );
      },
      /** One statement by id: a restated one too (its `restated_by` names the correction). */
      retrieve(customerId: string, accountId: string, statementId: string): Promise<S> {
        return unwrap(
          http.GET("/v2/customers/{customer_id}/accounts/{account_id}/statements/{statement_id}", {
            params: {
              path: { customer_id: customerId, account_id: accountId, statement_id: statementId },
            },
          }),
        );
      },
      /** Every line item of a statement, in posting order, across as many pages as it takes. */
      lineItems(
        customerId: string,
        accountId: string,
        statementId: string,
        query: LineItemQuery = {},
      ): AsyncGenerator<LineItem<V>> {
        return everyItem<LineItem<V>>(
          (startingAfter) =>
            this.lineItemsPage(customerId, accountId, statementId, {
              ...query,
              starting_after: startingAfter,
            }),
          byToken,
        );
      },
      /** One page of a statement's line items; the token pages on under the same `type`. */
      lineItemsPage(
        customerId: string,
        accountId: string,
        statementId: string,
        query: LineItemQuery & { starting_after?: string | undefined } = {},
      ): Promise<LineItemList<V>> {
        const { type, ...rest } = query;
        const types = type === undefined ? {} : { type: [type].flat().join(",") };
        return unwrap(
          http.GET(
            "/v2/customers/{customer_id}/accounts/{account_id}/statements/{statement_id}/line_items",
            {
              params: {
                path: { customer_id: customerId, account_id: accountId, statement_id: statementId },
                query: { ...rest, ...types },
              },
            },
          ),
        );
      },
      /** One page of statements. */
      page(
        customerId: string,
        accountId: string,
        query: StatementQuery & { starting_after?: string | undefined } = {},
      ): Promise<StatementList<V>> {
        return unwrap(
          http.GET("/v2/customers/{customer_id}/accounts/{account_id}/statements", {
            params: { path: { customer_id: customerId, account_id: accountId }, query },
          }),
        );
      },
    },

    accounts: {
      list(customerId: string, query: ListQuery = {}): AsyncGenerator<Account<V>> {
        return everyItem<Account<V>>(
          (startingAfter) =>
            unwrap(
              http.GET("/v2/customers/{customer_id}/accounts", {
                params: {
                  path: { customer_id: customerId },
                  query: { ...query, starting_after: startingAfter },
                },
              }),
            ),
          byLastId((a) => a.account_id),
        );
      },
      retrieve(customerId: string, accountId: string): Promise<Account<V>> {
        return unwrap(
          http.GET("/v2/customers/{customer_id}/accounts/{account_id}", {
            params: { path: { customer_id: customerId, account_id: accountId } },
          }),
        );
      },
    },

    paymentMethods: {
      /** A customer's cards, newest first, masked. */
      list(customerId: string, query: PaymentMethodQuery = {}): AsyncGenerator<PaymentMethod<V>> {
        return everyItem<PaymentMethod<V>>(
          (startingAfter) =>
            unwrap(
              http.GET("/v2/payment_methods", {
                params: {
                  query: { ...query, customer_id: customerId, starting_after: startingAfter },
                },
              }),
            ),
          byLastId((p) => p.payment_method_id),
        );
      },
      /** One card; `card.pci_details` only for a key holding PCI_DETAILS_READ. */
      retrieve(paymentMethodId: string): Promise<PaymentMethod<V>> {
        return unwrap(
          http.GET("/v2/payment_methods/{payment_method_id}", {
            params: { path: { payment_method_id: paymentMethodId } },
          }),
        );
      },
      /**
       * The card encrypted for a wallet, to hand to it from your app: Apple Pay's
       * `certificates`, `nonce` and `nonce_signature` (standard base64, as PassKit gave them), or
       * Google Pay's and Samsung Pay's `client_device_id` and `client_wallet_account_id`.
       */
      provision(
        paymentMethodId: string,
        wallet: "apple_pay" | "google_pay" | "samsung_pay",
        body: RequestBody<"/v2/payment_methods/{payment_method_id}/provision/{wallet}">,
        o?: PostOptions,
      ): Promise<PaymentMethodProvisioning<V>> {
        return unwrap(
          http.POST("/v2/payment_methods/{payment_method_id}/provision/{wallet}", {
            params: { path: { payment_method_id: paymentMethodId, wallet } },
            body,
            ...post(o),
          }),
        );
      },
    },

    customers: {
      list(query: ListQuery = {}): AsyncGenerator<Customer<V>> {
        return everyItem<Customer<V>>(
          (startingAfter) =>
            unwrap(
              http.GET("/v2/customers", {
                params: { query: { ...query, starting_after: startingAfter } },
              }),
            ),
          byLastId((c) => c.customer_id),
        );
      },
      retrieve(customerId: string): Promise<Customer<V>> {
        return unwrap(
          http.GET("/v2/customers/{customer_id}", {
            params: { path: { customer_id: customerId } },
          }),
        );
      },
      link(customerId: string, partnerCustomerId: string, o?: PostOptions): Promise<Customer<V>> {
        return unwrap(
          http.POST("/v2/customers/{customer_id}/link", {
            params: { path: { customer_id: customerId } },
            body: { partner_customer_id: partnerCustomerId },
            ...post(o),
          }),
        );
      },
    },

    events: {
      /** Every event of the last 30 days, newest first; of some types only with `type`. */
      list(query: EventQuery = {}): AsyncGenerator<Event<V>> {
        const { type, ...rest } = query;
        const types = type === undefined ? {} : { type: [type].flat().join(",") };
        return everyItem<Event<V>>(
          (startingAfter) =>
            unwrap(
              http.GET("/v2/events", {
                params: { query: { ...rest, ...types, starting_after: startingAfter } },
              }),
            ),
          byToken,
        );
      },
      retrieve(eventId: string): Promise<Event<V>> {
        return unwrap(
          http.GET("/v2/events/{event_id}", { params: { path: { event_id: eventId } } }),
        );
      },
      deliveryAttempts(eventId: string): AsyncGenerator<DeliveryAttempt<V>> {
        return everyItem<DeliveryAttempt<V>>(
          (startingAfter) =>
            unwrap(
              http.GET("/v2/events/{event_id}/delivery_attempts", {
                params: { path: { event_id: eventId }, query: { starting_after: startingAfter } },
              }),
            ),
          byLastId((a) => a.attempt_id),
        );
      },
      resend(
        eventId: string,
        webhookEndpointId?: string,
        o?: PostOptions,
      ): Promise<EventResend<V>> {
        return unwrap(
          http.POST("/v2/events/{event_id}/resend", {
            params: { path: { event_id: eventId } },
            body: webhookEndpointId === undefined ? {} : { webhook_endpoint_id: webhookEndpointId },
            ...post(o),
          }),
        );
      },
    },

    eventTypes: {
      /** The event types of the client's version, with what each announces. */
      async list(): Promise<EventType<V>[]> {
        const page = await unwrap<{ data: EventType<V>[] }>(http.GET("/v2/event_types"));
        return page.data;
      },
    },

    webhookEndpoints: {
      /** `enabled_events`: the types it receives, as the client's version names them. */
      create(
        body: RequestBody<"/v2/webhook_endpoints">,
        o?: PostOptions,
      ): Promise<WebhookEndpoint<V>> {
        return unwrap(http.POST("/v2/webhook_endpoints", { body, ...post(o) }));
      },
      /** Changes only the fields given (`description: ""` removes it). */
      update(
        id: string,
        body: RequestBody<"/v2/webhook_endpoints/{webhook_endpoint_id}">,
        o?: PostOptions,
      ): Promise<WebhookEndpoint<V>> {
        return unwrap(
          http.POST("/v2/webhook_endpoints/{webhook_endpoint_id}", {
            params: { path: { webhook_endpoint_id: id } },
            body,
            ...post(o),
          }),
        );
      },
      /**
       * Queues, once each and in order, every event of its types since `since` (and before
       * `until`) that the endpoint has not received; `has_more` asks for another call.
       */
      recover(
        id: string,
        body: RequestBody<"/v2/webhook_endpoints/{webhook_endpoint_id}/recover">,
        o?: PostOptions,
      ): Promise<WebhookEndpointRecovery<V>> {
        return unwrap(
          http.POST("/v2/webhook_endpoints/{webhook_endpoint_id}/recover", {
            params: { path: { webhook_endpoint_id: id } },
            body,
            ...post(o),
          }),
        );
      },
      list(query: ListQuery = {}): AsyncGenerator<WebhookEndpoint<V>> {
        return everyItem<WebhookEndpoint<V>>(
          (startingAfter) =>
            unwrap(
              http.GET("/v2/webhook_endpoints", {
                params: { query: { ...query, starting_after: startingAfter } },
              }),
            ),
          byLastId((e) => e.webhook_endpoint_id),
        );
      },
      retrieve(id: string): Promise<WebhookEndpoint<V>> {
        return unwrap(
          http.GET("/v2/webhook_endpoints/{webhook_endpoint_id}", {
            params: { path: { webhook_endpoint_id: id } },
          }),
        );
      },
      async delete(id: string, o?: PostOptions): Promise<void> {
        await unwrap(
          http.DELETE("/v2/webhook_endpoints/{webhook_endpoint_id}", {
            params: { path: { webhook_endpoint_id: id } },
            ...post(o),
          }),
        );
      },
      rollSecret(
        id: string,
        body: { previous_secret_expires_in?: number } = {},
        o?: PostOptions,
      ): Promise<WebhookEndpoint<V>> {
        return unwrap(
          http.POST("/v2/webhook_endpoints/{webhook_endpoint_id}/roll_secret", {
            params: { path: { webhook_endpoint_id: id } },
            body,
            ...post(o),
          }),
        );
      },
      enable(id: string, o?: PostOptions): Promise<WebhookEndpoint<V>> {
        return unwrap(
          http.POST("/v2/webhook_endpoints/{webhook_endpoint_id}/enable", {
            params: { path: { webhook_endpoint_id: id } },
            ...post(o),
          }),
        );
      },
    },

    orders: {
      /** Σ quantity × unit_amount of `lines` must equal `total_amount`. */
      create(body: RequestBody<"/v2/orders">, o?: PostOptions): Promise<Order<V>> {
        return unwrap(http.POST("/v2/orders", { body, ...post(o) }));
      },
      /** Every order, newest first; of one customer or partner_order_id when asked. */
      list(query: OrderQuery = {}): AsyncGenerator<Order<V>> {
        return everyItem<Order<V>>(
          (startingAfter) =>
            unwrap(
              http.GET("/v2/orders", {
                params: { query: { ...query, starting_after: startingAfter } },
              }),
            ),
          byLastId((order) => order.order_id),
        );
      },
      /** The same body as create; partner_order_id, customer_id and currency cannot change. */
      update(
        id: string,
        body: PutBody<"/v2/orders/{order_id}">,
        o?: PostOptions,
      ): Promise<Order<V>> {
        return unwrap(
          http.PUT("/v2/orders/{order_id}", {
            params: { path: { order_id: id } },
            body,
            ...post(o),
          }),
        );
      },
      /** Refused (409) while the order has events. */
      async delete(id: string, o?: PostOptions): Promise<void> {
        await unwrap(
          http.DELETE("/v2/orders/{order_id}", { params: { path: { order_id: id } }, ...post(o) }),
        );
      },
    },

    orderEvents: {
      /** A capture or refund of an order, in the order's currency. */
      create(body: RequestBody<"/v2/order_events">, o?: PostOptions): Promise<OrderEvent<V>> {
        return unwrap(http.POST("/v2/order_events", { body, ...post(o) }));
      },
      list(query: OrderEventQuery = {}): AsyncGenerator<OrderEvent<V>> {
        return everyItem<OrderEvent<V>>(
          (startingAfter) =>
            unwrap(
              http.GET("/v2/order_events", {
                params: { query: { ...query, starting_after: startingAfter } },
              }),
            ),
          byLastId((event) => event.order_event_id),
        );
      },
      async delete(id: string, o?: PostOptions): Promise<void> {
        await unwrap(
          http.DELETE("/v2/order_events/{order_event_id}", {
            params: { path: { order_event_id: id } },
            ...post(o),
          }),
        );
      },
    },

    transactionIntents: {
      /** Created `REQUIRES_CONFIRMATION`. */
      create(
        body: RequestBody<"/v2/transaction_intents">,
        o?: PostOptions,
      ): Promise<TransactionIntent<V>> {
        return unwrap(http.POST("/v2/transaction_intents", { body, ...post(o) }));
      },
      /** Confirms or cancels it (`status`), or changes its amount before confirmation. */
      update(
        id: string,
        body: RequestBody<"/v2/transaction_intents/{intent_id}">,
        o?: PostOptions,
      ): Promise<TransactionIntent<V>> {
        return unwrap(
          http.POST("/v2/transaction_intents/{intent_id}", {
            params: { path: { intent_id: id } },
            body,
            ...post(o),
          }),
        );
      },
      retrieve(id: string): Promise<TransactionIntent<V>> {
        return unwrap(
          http.GET("/v2/transaction_intents/{intent_id}", { params: { path: { intent_id: id } } }),
        );
      },
      /** A customer's intents, newest first; in one status when asked. */
      list(
        customerId: string,
        query: TransactionIntentQuery = {},
      ): AsyncGenerator<TransactionIntent<V>> {
        return everyItem<TransactionIntent<V>>(
          (startingAfter) =>
            unwrap(
              http.GET("/v2/customers/{customer_id}/transaction_intents", {
                params: {
                  path: { customer_id: customerId },
                  query: { ...query, starting_after: startingAfter },
                },
              }),
            ),
          byLastId((intent) => intent.intent_id),
        );
      },
    },

    keys: {
      /** A new key with exactly this key's scopes; its `api_key` is shown only here. */
      create(body: { name?: string } = {}, o?: PostOptions): Promise<ApiKey<V>> {
        return unwrap(http.POST("/v2/keys", { body, ...post(o) }));
      },
    },

    /** Sandbox keys only: data of your own making, which behaves like real data. */
    simulations: {
      /** A sandbox customer with one open account. */
      createCustomer(
        body: RequestBody<"/v2/simulations/customers"> = {},
        o?: PostOptions,
      ): Promise<SimulatedCustomer<V>> {
        return unwrap(http.POST("/v2/simulations/customers", { body, ...post(o) }));
      },
      /**
       * Closes a billing cycle of one of your sandbox customers' accounts: its statement, which
       * then renders and is announced by `statement.created` and `statement.pdf_available`.
       */
      closeCycle(
        body: RequestBody<"/v2/simulations/statements">,
        o?: PostOptions,
      ): Promise<Statement<V>> {
        return unwrap(http.POST("/v2/simulations/statements", { body, ...post(o) }));
      },
      /**
       * A test card of one of your sandbox customers' accounts, its PAN on the network's test
       * range; with `pci_details` when the key holds `PCI_DETAILS_READ`.
       */
      createPaymentMethod(
        body: RequestBody<"/v2/simulations/payment_methods">,
        o?: PostOptions,
      ): Promise<PaymentMethod<V>> {
        return unwrap(http.POST("/v2/simulations/payment_methods", { body, ...post(o) }));
      },
    },
  };
}

export type CardStatementsClient<V extends Version> = ReturnType<typeof createClient<V>>;
