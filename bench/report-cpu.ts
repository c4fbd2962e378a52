// RESULTS.md's CPU section: the profiled CPU a statements request costs the service's Worker and
// the floor's, per round, and their ratio within each round.
import type { CpuRounds } from "./cpu.ts";
import { fixed } from "./format.ts";
import { median } from "./load.ts";

/** Per round, the service's Worker CPU ÷ the floor's at `limit`; the median over rounds. */
export function workerCpuRatio(cpu: CpuRounds, limit: number) {
  const rounds = cpu.map((round) => {
    const service = round.get(`statements-${limit}`)?.workerMs ?? Number.NaN;
    const floor = round.get(`floor-${limit}`)?.workerMs ?? Number.NaN;
    return service / floor;
  });
  return { median: median(rounds), rounds };
}

type Field = "workerMs" | "d1Ms" | "limiterMs";

/** Per round, the Worker CPU the request log adds to a request (on − off, ms); the median. */
export function addedLogCpu(cpu: CpuRounds, limit: number) {
  const rounds = cpu.map((round) => {
    const on = round.get(`statements-${limit}`)?.workerMs ?? Number.NaN;
    const off = round.get(`unlogged-${limit}`)?.workerMs ?? Number.NaN;
    return on - off;
  });
  return { median: median(rounds), rounds };
}

export function armMedian(cpu: CpuRounds, id: string, field: Field): number {
  return median(cpu.map((round) => round.get(id)?.[field] ?? Number.NaN));
}

const spread = (cpu: CpuRounds, id: string, field: Field) =>
  cpu.map((round) => fixed(round.get(id)?.[field] ?? Number.NaN)).join(", ");

const LABELS: Record<string, string> = {
  statements: "statements, full pipeline",
  unlogged: "statements, request log off",
  floor: "floor",
  "bare-floor": "floor, rate limiters not bound (diagnostic)",
};

export function cpuSection(cpu: CpuRounds): string[] {
  const rows = [10, 100].flatMap((limit) =>
    Object.entries(LABELS)
      .filter(([arm]) => cpu.some((round) => round.has(`${arm}-${limit}`)))
      .map(([arm, label]) => {
        const id = `${arm}-${limit}`;
        return (
          `| ${label}, limit=${limit} | ${fixed(armMedian(cpu, id, "workerMs"))} ` +
          `(${spread(cpu, id, "workerMs")}) | ${fixed(armMedian(cpu, id, "d1Ms"))} ` +
          `(${spread(cpu, id, "d1Ms")}) | ${fixed(armMedian(cpu, id, "limiterMs"))} |`
        );
      }),
  );
  return [
    "## CPU per request",
    "",
    `From CPU profiles of the isolates taken while each arm ran under load (${cpu.length} rounds, ` +
      "the order alternating): busy milliseconds per request, median (every round). A sample " +
      "weighs the time since the previous one but at most two sampling intervals, so time an " +
      "isolate spent waiting for a core or for another isolate is not counted; what is left " +
      "still varies with the machine's load, and the ratio within a round is what the goal " +
      "compares. The floor makes the service's two rate-limit checks. The D1 column is " +
      "Miniflare's D1 proxy and D1 object together, and the rate limiter column Miniflare's " +
      "limiter (its entry Worker and object), both of which production runs outside the Worker.",
    "",
    "| arm | Worker ms per request | local D1 ms per request | local rate limiter ms per request |",
    "| --- | ---: | ---: | ---: |",
    ...rows,
    "",
    ...[10, 100].map((limit) => {
      const r = workerCpuRatio(cpu, limit);
      return (
        `- Worker CPU, statements ÷ floor, limit=${limit}: ${fixed(r.median)} ` +
        `(rounds: ${r.rounds.map((x) => fixed(x)).join(", ")})`
      );
    }),
    "",
  ];
}
