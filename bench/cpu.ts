// CPU per request from profiles: each arm is loaded while the isolates it runs in are profiled,
// in rounds that alternate the order, so the service and the floor are compared within a round.
// Profiling inflates every figure alike; ratios within a round are what the goals compare.
import {
  cpuByName,
  D1_ISOLATES,
  LIMITER_ISOLATES,
  profileDuring,
  workerIsolate,
} from "./inspector.ts";
import { measure, type Target } from "./load.ts";

export interface CpuArm {
  id: string;
  label: string;
  /** The bench Worker serving the arm, whose isolate is the arm's own CPU. */
  worker: string;
  target: Target;
}

export interface CpuSample {
  /** The Worker's busy CPU per request (ms). */
  workerMs: number;
  /** Miniflare's D1 proxy and D1 object, together, per request (ms). */
  d1Ms: number;
  /** Miniflare's rate-limiter binding (its entry Worker and object), per request (ms). */
  limiterMs?: number;
  requests: number;
  /** Why the arm's profile failed in this round (its figures are then NaN). */
  error?: string;
}

/** An arm's sample in a round where its profile failed: no figures, and why. */
const failedSample = (error: unknown): CpuSample => ({
  workerMs: Number.NaN,
  d1Ms: Number.NaN,
  requests: 0,
  error: error instanceof Error ? error.message : String(error),
});

/** Per round, per arm id, the CPU a request cost. */
export type CpuRounds = Map<string, CpuSample>[];

export async function measureCpu(
  inspectorPort: number,
  arms: readonly CpuArm[],
  options: { rounds: number; seconds: number; connections: number },
  progress: (message: string) => void,
): Promise<CpuRounds> {
  const rounds: CpuRounds = [];
  for (let r = 0; r < options.rounds; r++) {
    progress(`CPU profiles, round ${r + 1} of ${options.rounds}: ${arms.length} arms`);
    const round = new Map<string, CpuSample>();
    for (const arm of r % 2 === 0 ? arms : [...arms].reverse()) {
      const isolates = [workerIsolate(arm.worker), ...D1_ISOLATES, ...LIMITER_ISOLATES];
      // A profile that fails (its load, or an inspector that stops answering) fails that arm in
      // that round; the other arms and rounds are still measured.
      const profiled = await profileDuring(inspectorPort, isolates, async () => {
        const result = await measure(arm.target, {
          connections: options.connections,
          seconds: options.seconds,
        });
        return result.requests;
      }).catch((error: unknown) => {
        progress(`  ${arm.id}: failed in round ${r + 1}: ${failedSample(error).error}`);
        round.set(arm.id, failedSample(error));
        return null;
      });
      if (!profiled) continue;
      const { requests, profiles } = profiled;
      const busyMs = (isolate: string) => {
        const profile = profiles.get(isolate);
        return profile ? cpuByName(profile, () => "").busyMicros / 1000 / requests : Number.NaN;
      };
      round.set(arm.id, {
        workerMs: busyMs(workerIsolate(arm.worker)),
        d1Ms: D1_ISOLATES.reduce((sum, isolate) => sum + busyMs(isolate), 0),
        limiterMs: LIMITER_ISOLATES.reduce((sum, isolate) => sum + busyMs(isolate), 0),
        requests,
      });
    }
    rounds.push(round);
  }
  return rounds;
}

/**
 * The CPU per request of two arms loaded at the same time, each on half the connections, while
 * both isolates are profiled: whatever else the machine runs falls on both alike, so their ratio
 * holds steady where arms loaded one after the other drift with the load (a profile's quick
 * comparison; the goals keep the rounds above).
 */
export async function measureCpuPaired(
  inspectorPort: number,
  arms: readonly [CpuArm, CpuArm],
  options: { rounds: number; seconds: number; connections: number },
  progress: (message: string) => void,
): Promise<CpuRounds> {
  const rounds: CpuRounds = [];
  const isolates = arms.map((arm) => workerIsolate(arm.worker));
  for (let r = 0; r < options.rounds; r++) {
    progress(
      `paired CPU profiles, round ${r + 1} of ${options.rounds}: ${arms[0].id}, ${arms[1].id}`,
    );
    const counts: number[] = [];
    const profiled = await profileDuring(inspectorPort, isolates, async () => {
      const results = await Promise.all(
        arms.map((arm) =>
          measure(arm.target, {
            connections: Math.max(1, options.connections / 2),
            seconds: options.seconds,
          }),
        ),
      );
      for (const result of results) counts.push(result.requests);
      return counts.reduce((a, b) => a + b, 0);
    }).catch((error: unknown) => {
      progress(`  failed in round ${r + 1}: ${failedSample(error).error}`);
      return null;
    });
    const round = new Map<string, CpuSample>();
    if (!profiled) {
      for (const arm of arms) round.set(arm.id, failedSample("the paired profile failed"));
      rounds.push(round);
      continue;
    }
    const { profiles } = profiled;
    arms.forEach((arm, i) => {
      const profile = profiles.get(workerIsolate(arm.worker));
      const requests = counts[i] ?? 0;
      const busy = profile ? cpuByName(profile, () => "").busyMicros / 1000 : Number.NaN;
      round.set(arm.id, { workerMs: busy / requests, d1Ms: Number.NaN, requests });
    });
    rounds.push(round);
  }
  return rounds;
}
