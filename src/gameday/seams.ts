// Where the game day's faults reach the service: the bindings a handler is given (a shard's
// database that answers errors, a renderer that times out) and the queue handler (a consumer that
// dies mid-batch, a message delivered twice, a batch acknowledged and lost). Nothing here runs
// unless the run's flag is on (index.ts).
import type { Bindings } from "../app/context";
import { recordHits, takeQueueFault, timedFault } from "./faults";

/** How D1 answers when its storage is unreachable (what the service classifies as an outage). */
const D1_OUTAGE = "D1_ERROR: Network connection lost.";

/** How long a renderer call hangs before it fails, as a Service Binding call that times out. */
const RENDERER_HANG_MS = 3_000;

/** A shard binding's methods that reach its storage. */
const D1_CALLS = new Set<PropertyKey>(["withSession", "prepare", "batch", "exec", "dump"]);

/** What a queue message carries, in a few words: its statement, its delivery, its records. */
export function describeMessage(body: unknown): string {
  let value = body;
  if (typeof body === "string") {
    try {
      value = JSON.parse(body);
    } catch {
      return "a message that is not JSON";
    }
  }
  if (Array.isArray(value)) {
    const partners = new Set(
      value.map((r: unknown) => String(Reflect.get(Object(r), "partner_id"))),
    );
    const records = value.length === 1 ? "1 log record" : `${value.length} log records`;
    return partners.size > 0 ? `${records} of ${[...partners].join(" and ")}` : records;
  }
  if (typeof value !== "object" || value === null) return "a message of no known shape";
  const ref: Record<string, unknown> = { ...value };
  if (typeof ref.statement_id === "string") return `render of ${ref.statement_id}`;
  if (typeof ref.event_id === "string" && typeof ref.endpoint_id === "string") {
    return `delivery of ${ref.event_id}`;
  }
  return "a message of no known shape";
}

/** The statement a renderer call draws, read from its input (`StatementDocumentInput`). */
function statementDrawn(input: unknown): string {
  const statement: unknown = Reflect.get(Object(input), "statement");
  const id: unknown = Reflect.get(Object(statement), "statement_id");
  return typeof id === "string" ? id : "a statement";
}

/** Shard `shard`'s database, answering an outage to every new call while `d1-outage` lasts. */
function faultyDatabase(binding: D1Database, shard: string): D1Database {
  return new Proxy(binding, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (!D1_CALLS.has(prop)) return value.bind(target);
      return (...args: unknown[]) => {
        const outage = timedFault("d1-outage", Date.now(), shard);
        if (outage) {
          recordHits(outage, 1);
          throw new Error(D1_OUTAGE);
        }
        return Reflect.apply(value, target, args);
      };
    },
  });
}

/** The renderer, hanging and then failing as a call that times out while the fault lasts. */
function faultyRenderer(renderer: Bindings["STATEMENT_RENDERER"]): Bindings["STATEMENT_RENDERER"] {
  return new Proxy(renderer, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (prop !== "render" || typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        const timeout = timedFault("renderer-timeout", Date.now());
        if (timeout) {
          recordHits(timeout, 1, [statementDrawn(args[0])]);
          await new Promise((resolve) => setTimeout(resolve, RENDERER_HANG_MS));
          throw new Error("Service binding call timed out (game day)");
        }
        return Reflect.apply(value, target, args);
      };
    },
  });
}

const SHARD_BINDING = /^DB_([0-9A-Za-z]{2})$/;
const faulty = new WeakMap<object, Bindings>();

/** The bindings with the seams in place: one wrapping per bindings object the runtime hands. */
export function faultyBindings(env: Bindings): Bindings {
  const known = faulty.get(env);
  if (known) return known;
  const wrapped: Record<string, unknown> = { ...env };
  for (const [name, value] of Object.entries(env)) {
    const code = SHARD_BINDING.exec(name)?.[1];
    // A `DB_xx` binding is a shard's D1 database (src/db/shards.ts).
    if (code) wrapped[name] = faultyDatabase(value as D1Database, code);
  }
  wrapped.STATEMENT_RENDERER = faultyRenderer(env.STATEMENT_RENDERER);
  // The same bindings, two of them wrapped in proxies of their own type.
  const bindings = wrapped as unknown as Bindings;
  faulty.set(env, bindings);
  return bindings;
}

/** The producer of each queue a duplicate can be sent to again. */
const PRODUCERS: Record<string, keyof Bindings> = {
  "webhook-deliveries": "WEBHOOK_DELIVERIES",
  "statement-renders": "STATEMENT_RENDERS",
  "request-logs": "REQUEST_LOGS",
  "request-logs-eu": "REQUEST_LOGS_EU",
};

type QueueHandler = (batch: MessageBatch<unknown>, env: Bindings) => Promise<void> | void;

/** The batch's first `count` messages, as a batch of their own. */
function firstOf(batch: MessageBatch<unknown>, count: number): MessageBatch<unknown> {
  const messages = batch.messages.slice(0, count);
  return {
    queue: batch.queue,
    metadata: batch.metadata,
    messages,
    ackAll: () => {
      for (const message of messages) message.ack();
    },
    retryAll: (options) => {
      for (const message of messages) message.retry(options);
    },
  };
}

function describeAll(messages: readonly Message<unknown>[]): string[] {
  return messages.map((m) => describeMessage(m.body));
}

/** The queue handler with the queue faults in place. */
export function faultyQueue(consume: QueueHandler): QueueHandler {
  return async (batch, env) => {
    const fault = takeQueueFault(batch.queue, Date.now());
    if (!fault) return consume(batch, env);
    switch (fault.name) {
      case "lost-ack":
        // Acknowledged and never worked: only the sweep of lost work can find it again.
        recordHits(fault, batch.messages.length, describeAll(batch.messages));
        batch.ackAll();
        return;
      case "duplicate-delivery": {
        // Every message of the batch comes again in a later batch, as a queue may deliver it.
        const producer = PRODUCERS[batch.queue];
        // The producers named above are all Queue bindings.
        const queue = producer ? (env[producer] as Queue | undefined) : undefined;
        if (queue) {
          await queue.sendBatch(batch.messages.map((m) => ({ body: m.body })));
          recordHits(fault, batch.messages.length, describeAll(batch.messages));
        }
        return consume(batch, env);
      }
      default: {
        // The consumer dies half-way: the first half worked, the rest never acknowledged (a batch
        // of one dies before its message is worked, so that the death always leaves one behind).
        const half = Math.floor(batch.messages.length / 2);
        if (half > 0) await consume(firstOf(batch, half), env);
        recordHits(fault, batch.messages.length - half, describeAll(batch.messages.slice(half)));
        throw new Error(`game day: the ${batch.queue} consumer died mid-batch`);
      }
    }
  };
}
