// The faults a game day switches on and off while a local run serves traffic (scripts/gameday.ts):
// held in the isolate's memory, so that no storage a deployment has can carry one. Each fault
// counts what it hit, for the game day's report.

/** The queue consumers' faults, armed for a number of batches of one queue. */
export type QueueFaultName = "consumer-throws" | "duplicate-delivery" | "lost-ack";

/** The faults of the bindings, armed for a number of seconds. */
export type TimedFaultName = "d1-outage" | "renderer-timeout";

export type FaultName = QueueFaultName | TimedFaultName;

export interface Fault {
  name: FaultName;
  /** The queue a queue fault hits (`webhook-deliveries`, `statement-renders`, `request-logs`). */
  queue?: string;
  /** The shard whose database answers errors (`d1-outage`). */
  shard?: string;
  /** Batches still to hit (queue faults). */
  batches?: number;
  /** Until when (epoch ms) a timed fault lasts. */
  until?: number;
  /** Messages or calls the fault has hit so far. */
  hits: number;
  /** What the first of them were (a statement, a delivery, a request log's records). */
  examples: string[];
}

/** Examples a fault keeps of what it hit: enough to name it in the game day's table. */
const EXAMPLES_KEPT = 3;

/** Counts `count` hits of the fault, keeping the first few of what they were. */
export function recordHits(fault: Fault, count: number, examples: readonly string[] = []): void {
  fault.hits += count;
  for (const example of examples) {
    if (fault.examples.length >= EXAMPLES_KEPT) break;
    fault.examples.push(example);
  }
}

const QUEUE_FAULTS: readonly string[] = ["consumer-throws", "duplicate-delivery", "lost-ack"];
const TIMED_FAULTS: readonly string[] = ["d1-outage", "renderer-timeout"];

/** The faults armed in this isolate, and those that have run their course, newest last. */
const armed: Fault[] = [];
const finished: Fault[] = [];

/** What a request asks to arm, checked; a message naming the problem when it is not a fault. */
export function parseFault(body: unknown, now: number): Fault | string {
  if (typeof body !== "object" || body === null) return "the body must be a JSON object";
  // An object, just checked; each field is checked below before it is used.
  const { name, queue, shard, batches, seconds } = body as Record<string, unknown>;
  if (typeof name !== "string") return "name must be a string";
  if (QUEUE_FAULTS.includes(name)) {
    if (typeof queue !== "string" || queue === "") return `${name} needs a queue`;
    const count = typeof batches === "number" && batches > 0 ? Math.floor(batches) : 1;
    // The name was just found among the queue faults' names.
    return { name: name as QueueFaultName, queue, batches: count, hits: 0, examples: [] };
  }
  if (TIMED_FAULTS.includes(name)) {
    if (typeof seconds !== "number" || !(seconds > 0)) return `${name} needs seconds > 0`;
    if (name === "d1-outage" && (typeof shard !== "string" || !/^[0-9A-Za-z]{2}$/.test(shard))) {
      return "d1-outage needs a shard code";
    }
    const until = now + seconds * 1000;
    return {
      // The name was just found among the timed faults' names.
      name: name as TimedFaultName,
      ...(typeof shard === "string" ? { shard } : {}),
      until,
      hits: 0,
      examples: [],
    };
  }
  return `unknown fault ${JSON.stringify(name)}`;
}

export function arm(fault: Fault): void {
  armed.push(fault);
}

/** Disarms every fault; answers what each hit. */
export function disarmAll(): Fault[] {
  finished.push(...armed.splice(0));
  return finished.splice(0);
}

/** Every fault, armed or run out, with its hits. */
export function faultReport(now: number): { armed: Fault[]; finished: Fault[] } {
  expire(now);
  return { armed: [...armed], finished: [...finished] };
}

function expire(now: number): void {
  for (let i = armed.length - 1; i >= 0; i--) {
    // i counts down from the last index, so an element is there.
    const fault = armed[i] as Fault;
    const over = fault.until !== undefined ? fault.until <= now : (fault.batches ?? 0) <= 0;
    if (over) finished.push(...armed.splice(i, 1));
  }
}

/** The armed queue fault for a batch of `queue`, spending one of its batches; null when none. */
export function takeQueueFault(queue: string, now: number): Fault | null {
  expire(now);
  const fault = armed.find((f) => f.queue !== undefined && queue.startsWith(f.queue));
  if (!fault) return null;
  fault.batches = (fault.batches ?? 1) - 1;
  return fault;
}

/** The armed timed fault `name` (for `shard`, if it has one); null when none. */
export function timedFault(name: TimedFaultName, now: number, shard?: string): Fault | null {
  expire(now);
  return armed.find((f) => f.name === name && (f.shard === undefined || f.shard === shard)) ?? null;
}
