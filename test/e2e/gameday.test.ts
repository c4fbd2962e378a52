// The game day's short form (scripts/gameday.ts, docs/testing.md "Game day"): a throwaway local run
// with its fault seams on, each fault injected while partners import, read, receive webhooks and
// have documents rendered, and every invariant checked at the end.
import { describe, expect, it } from "vitest";
import { runGameDay } from "../../scripts/gameday.ts";
import { PROCESS_HOOK_MS, PROCESS_TEST_MS } from "../support/node/timeouts.ts";

describe("the game day, short", () => {
  it("keeps every invariant through every fault, each recovered", {
    // Starting the run (up to PROCESS_HOOK_MS on a busy machine), six faults with their
    // recoveries, and the checks.
    timeout: PROCESS_HOOK_MS + 3 * PROCESS_TEST_MS,
  }, async () => {
    const lines: string[] = [];
    const result = await runGameDay({ short: true, log: (line) => lines.push(line) });
    const report = `${lines.join("\n")}\n${result.table}`;
    expect(
      result.rows.map((r) => r.fault),
      report,
    ).toHaveLength(6);
    expect(
      result.rows.filter((r) => r.time_to_recover === "NOT RECOVERED"),
      report,
    ).toEqual([]);

    expect(result.broken, report).toEqual([]);
  });
});
