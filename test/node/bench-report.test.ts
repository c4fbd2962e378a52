// The bench's report when a step failed: RESULTS.md still holds every figure the other steps
// measured, names what failed and why, and shows the goals it could not measure as not measured
// (never a crash, never a figure made of nothing).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Arm } from "../../bench/arms.ts";
import { emptyImports } from "../../bench/import.ts";
import type { Measurement } from "../../bench/load.ts";
import { lineItemGoals, suspectGoals, writeResults } from "../../bench/report.ts";
import type { RunResults } from "../../bench/results.ts";

const arm = (id: string): Arm => ({ id, label: id, url: `http://127.0.0.1/${id}` });
const measured = (rps: number): Measurement => ({ rps, p50: 5, p99: 9, requests: rps * 2 });

/** A run whose timed rounds measured statements and floor at limit 10, and nothing else. */
function partialRun(): RunResults {
  const round = () =>
    new Map([
      ["statements-10", measured(90)],
      ["floor-10", measured(100)],
    ]);
  return {
    date: new Date("2026-11-28T00:00:00Z"),
    settings: {
      rounds: 2,
      seconds: 2,
      warmupSeconds: 1,
      connections: 4,
      cpuRounds: 3,
      cpuSeconds: 3,
      inspectorInRounds: false,
    },
    load: { before: [1, 1, 1], after: [2, 2, 2] },
    durationSeconds: 60,
    arms: [arm("statements-10"), arm("floor-10")],
    rounds: [round(), round()],
    cpu: [],
    costs: [],
    bundle: { main: "index.js", modules: [], bytes: 600_000, gzipBytes: 180_000 },
    startup: null,
    tables: { large: 1_000_000, small: 1_000 },
    imports: emptyImports(),
    failures: { "import arms: growth": "other side closed" },
    finished: false,
  };
}

describe("the bench's report of a run with a failed step", () => {
  it("keeps what was measured, names the failure, and marks the rest not measured", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "bench-report-"));
    try {
      const file = path.join(dir, "RESULTS.md");
      await writeResults(file, path.join(dir, "depth.svg"), partialRun());
      const text = readFileSync(file, "utf8");
      expect(text).toContain("**This run has not finished**");
      expect(text).toContain("- **import arms: growth**: other side closed");
      const row = (name: string) => text.split("\n").find((line) => line.startsWith(`| ${name}`));
      expect(row("Statements ÷ floor, req/s, limit=10")).toContain("**0.90** (rounds: 0.90, 0.90)");
      expect(row("Import ÷ floor")).toContain("**not measured**");
      expect(row("Largest accepted import")).toContain("**not measured**");
      expect(row("Statements ÷ floor, req/s, limit=100")).toContain("**not measured**");
      expect(row("Line items ÷ floor, req/s, limit=10")).toContain("**not measured**");
      expect(row("Line items depth")).toContain("**not measured**");
      expect(row("Import with line items")).toContain("**not measured**");
      expect(text).not.toMatch(/NaN|Infinity|undefined/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports the line items page against its floor, and its depth with the rows read", () => {
    const round = (deep: number) =>
      new Map([
        ["line-items-10", measured(80)],
        ["line-items-floor-10", measured(100)],
        ["line-items-depth-0", { ...measured(100), p50: 5 }],
        ["line-items-depth-5000", { ...measured(100), p50: deep }],
      ]);
    const cost = (depth: number, rowsRead: number) => ({
      label: `line items, ${depth} deep`,
      limit: 10,
      depth,
      status: 200,
      roundTrips: 1,
      rowsRead,
      rowsReturned: 10,
    });
    const goals = lineItemGoals({
      rounds: [round(5.25), round(5.75)],
      lineItemCosts: [cost(0, 15), cost(5000, 15)],
    });
    const byName = (start: string) => goals.find((g) => g.name.startsWith(start));
    expect(byName("Line items ÷ floor, req/s, limit=10")).toMatchObject({
      measured: "**0.80** (rounds: 0.80, 0.80)",
      met: false,
    });
    expect(byName("Line items ÷ floor, req/s, limit=100")?.measured).toContain("not measured");
    expect(byName("Line items depth")).toMatchObject({
      name: "Line items depth: p50 5,000 items deep ÷ p50 first page (rows read 15 vs 15)",
      measured: "**1.10** (rounds: 1.05, 1.15)",
      met: true,
    });
    const unequal = lineItemGoals({
      rounds: [round(5)],
      lineItemCosts: [cost(0, 15), cost(5000, 16)],
    });
    expect(unequal.find((g) => g.name.startsWith("Line items depth"))?.met).toBe(false);
  });
});

describe("the bench's report of a floor slower than its service", () => {
  it("calls no goal met whose service ÷ floor is above 1.2, and names the floor suspect", async () => {
    const run = partialRun();
    const round = () =>
      new Map([
        ["statements-10", measured(300)],
        ["floor-10", measured(100)],
        ["orders-10", measured(90)],
        ["orders-floor-10", measured(100)],
      ]);
    run.rounds = [round(), round(), round()];
    const dir = mkdtempSync(path.join(os.tmpdir(), "bench-report-"));
    try {
      const file = path.join(dir, "RESULTS.md");
      await writeResults(file, path.join(dir, "depth.svg"), run);
      const text = readFileSync(file, "utf8");
      const row = (name: string) => text.split("\n").find((line) => line.startsWith(`| ${name}`));
      expect(row("Statements ÷ floor, req/s, limit=10")).toContain("**floor suspect**");
      expect(row("Statements ÷ floor, req/s, limit=10")).toMatch(/\| \*\*no\*\* \|/);
      expect(row("Orders ÷ floor, req/s, limit=10")).toMatch(/\*\*0\.90\*\*.*\| yes \|/);
      expect(suspectGoals(run).map((g) => g.name)).toEqual(["Statements ÷ floor, req/s, limit=10"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
