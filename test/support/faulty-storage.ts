// Storage bindings that record every call a request makes and fail the Nth one on demand, the way
// D1 and R2 fail in production: a lost connection, a timeout, or a batch that breaks midway.

export type FaultMode = "error" | "timeout" | "mid-batch";

export interface StorageCall {
  binding: "DB" | "PDFS";
  /** `all`, `run`, `first`, `raw`, `batch`, `exec`; or the R2 method. */
  op: string;
  /** The SQL of each statement the call runs (several for a batch). */
  sql: string[];
}

const FAILURES: Record<Exclude<FaultMode, "mid-batch">, Record<StorageCall["binding"], string>> = {
  error: {
    DB: "D1_ERROR: Network connection lost.",
    PDFS: "We encountered an internal error. Please try again. (10001)",
  },
  timeout: {
    DB: "D1_ERROR: D1 DB storage operation exceeded timeout which caused object to be reset.",
    PDFS: "The operation timed out. (10058)",
  },
};

/** A statement that fails while running, inside the batch, after the statements before it. */
const FAILING_STATEMENT = "SELECT abs(-9223372036854775808) AS overflow";

/**
 * Best-effort writes a request schedules after its answer (`waitUntil`): a key's last-used day
 * and the per-version request counts. Not calls of the request: the probe lets them through
 * unrecorded, so the request's own calls keep their order (their failure is logged, never
 * answered).
 */
export function isDeferredWrite(sql: string): boolean {
  return /^\s*(update\s+"api_keys"\s+set\s+"last_used_on"|insert\s+into\s+"?version_usage)/i.test(
    sql,
  );
}

/** Wraps the real bindings; `failAt` (1-based) picks the call that fails, none when absent. */
export class StorageProbe {
  readonly calls: StorageCall[] = [];

  constructor(
    private readonly failAt?: number,
    private readonly mode: FaultMode = "error",
    /** Awaited before each batch runs, with its statements' SQL: holds a request mid-way. */
    private readonly beforeBatch?: (sql: string[]) => Promise<void>,
  ) {}

  /** Records a call; true when this is the one to fail. */
  private record(call: StorageCall): boolean {
    this.calls.push(call);
    return this.calls.length === this.failAt;
  }

  private failure(binding: StorageCall["binding"]): Error {
    return new Error(FAILURES[this.mode === "timeout" ? "timeout" : "error"][binding]);
  }

  /**
   * Wraps the D1 binding. Each request runs in a session (`withSession`): the probe wraps the real
   * session the same way, so the calls made through it are recorded and failed like any other.
   */
  db(real: D1Database): D1Database {
    return {
      ...this.wrapCalls(real),
      exec: (sql: string) => {
        if (this.record({ binding: "DB", op: "exec", sql: [sql] })) {
          return Promise.reject(this.failure("DB"));
        }
        return real.exec(sql);
      },
      withSession: (constraint?: D1SessionBookmark | D1SessionConstraint) => {
        const session = real.withSession(constraint);
        return { ...this.wrapCalls(session), getBookmark: () => session.getBookmark() };
      },
    } as unknown as D1Database;
  }

  /** `prepare` and `batch` of a binding or session, recorded, failing the chosen call. */
  private wrapCalls(real: D1Database | D1DatabaseSession) {
    const probe = this;
    const statement = (inner: D1PreparedStatement, sql: string): D1PreparedStatement => {
      const run =
        (op: "all" | "run" | "first" | "raw") =>
        (...args: unknown[]) => {
          if (isDeferredWrite(sql)) {
            return (inner[op] as (...a: unknown[]) => Promise<unknown>)(...args);
          }
          if (probe.record({ binding: "DB", op, sql: [sql] })) {
            return Promise.reject(probe.failure("DB"));
          }
          return (inner[op] as (...a: unknown[]) => Promise<unknown>)(...args);
        };
      return {
        bind: (...values: unknown[]) => statement(inner.bind(...values), sql),
        all: run("all"),
        run: run("run"),
        first: run("first"),
        raw: run("raw"),
        [INNER]: inner,
        [SQL]: sql,
      } as unknown as D1PreparedStatement;
    };
    return {
      prepare: (sql: string) => statement(real.prepare(sql), sql),
      async batch(statements: D1PreparedStatement[]) {
        const inner = statements.map((s) => (s as unknown as Tagged)[INNER]);
        const sql = statements.map((s) => (s as unknown as Tagged)[SQL]);
        await probe.beforeBatch?.(sql);
        if (!probe.record({ binding: "DB", op: "batch", sql })) return real.batch(inner);
        if (probe.mode !== "mid-batch") throw probe.failure("DB");
        // Run the first half for real, then a statement that fails: D1 must roll it all back.
        const half = Math.ceil(inner.length / 2);
        const broken = [
          ...inner.slice(0, half),
          real.prepare(FAILING_STATEMENT),
          ...inner.slice(half),
        ];
        await real.batch(broken);
        throw new Error("the injected statement did not fail");
      },
    };
  }

  bucket(real: R2Bucket): R2Bucket {
    const method =
      (op: "head" | "get" | "put" | "delete" | "list") =>
      (...args: unknown[]) => {
        if (this.record({ binding: "PDFS", op, sql: [] })) {
          return Promise.reject(this.failure("PDFS"));
        }
        return (real[op] as (...a: unknown[]) => Promise<unknown>).apply(real, args);
      };
    return {
      head: method("head"),
      get: method("get"),
      put: method("put"),
      delete: method("delete"),
      list: method("list"),
    } as unknown as R2Bucket;
  }

  /** Calls whose SQL writes. */
  writes(): StorageCall[] {
    return this.calls.filter((c) => c.sql.some((sql) => /^\s*(insert|update|delete)\b/i.test(sql)));
  }
}

const INNER = Symbol("inner statement");
const SQL = Symbol("sql");
type Tagged = { [INNER]: D1PreparedStatement; [SQL]: string };

/**
 * A probe that holds the first batch whose SQL matches `statement` until `release()`: a request
 * slow to commit, so that a test can act meanwhile. `held` resolves once the batch waits.
 */
export function holdingBatch(statement: RegExp) {
  let arrive = () => {};
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const probe = new StorageProbe(undefined, "error", async (sql) => {
    if (sql.some((s) => statement.test(s))) {
      arrive();
      await released;
    }
  });
  return { probe, held, release };
}
