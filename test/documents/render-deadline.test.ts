// A render attempt that never settles (I/O that never answers) is given up at the consumer's
// deadline and retried with backoff, so that its batch, and the queue behind it, goes on: Miniflare
// dispatches a queue's batches one at a time, and a deployed consumer would hold the batch's
// messages until its invocation's wall-time limit.
import { describe, expect, it, vi } from "vitest";
import type { StatementRenderer } from "../../src/documents/render-input";
import { RENDER_ATTEMPT_DEADLINE_MS } from "../../src/documents/render-queue";
import { seedAccount } from "../support/fixtures";
import { consume, pendingRender, renderOf } from "../support/renders";

describe("a render attempt that never settles", () => {
  it("is given up at the deadline and its message retried", async () => {
    const f = await seedAccount();
    const ref = await pendingRender(f);
    let calls = 0;
    const hanging: StatementRenderer = {
      render() {
        calls += 1;
        return new Promise(() => {});
      },
    };
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      // Base 1 s in the test config: the first retry waits 1 s.
      expect(await consume(ref, hanging, 200)).toEqual({ acked: false, retriedAfter: 1 });
      expect(calls).toBe(1);
      const lines = errors.mock.calls.map(([line]) => JSON.parse(String(line)));
      expect(lines).toContainEqual({
        statement_render: "error",
        statement_id: ref.statement_id,
        error: "Error: the attempt did not settle within 200 ms",
      });
    } finally {
      errors.mockRestore();
    }
    // Still pending: the next delivery of the message renders it.
    expect(await renderOf(f, ref.statement_id)).toEqual({ status: "pending", error: null });
  });

  it("has a deadline far beyond a render's time and within a consumer's wall time", () => {
    expect(RENDER_ATTEMPT_DEADLINE_MS).toBeGreaterThanOrEqual(60_000);
    expect(RENDER_ATTEMPT_DEADLINE_MS).toBeLessThan(15 * 60_000);
  });
});
