import { measureWindow, summariseWindows, warmUp, type LoadPlan, type LoadWindow, type Target } from './load-runner';
import type { LoadMeasurement } from './report';

/** A target and the load it takes. */
export interface TargetLoad {
  target: Target;
  plan: LoadPlan;
}

/**
 * The order the targets take their windows in: as given in even rounds, reversed in odd ones
 * (A B C, C B A, A B C…), so that no target always follows the same one or always goes first
 * after the row's warm-ups.
 */
export function windowOrder(targets: number, rounds: number): number[][] {
  const forward = Array.from({ length: targets }, (_, index) => index);
  return Array.from({ length: rounds }, (_, round) => (round % 2 === 0 ? forward : [...forward].reverse()));
}

/**
 * The share of the warm-up each later window of a target follows. Its windows are a few seconds
 * apart (the other targets' turns), and on this project's machines a process that sat idle for
 * seconds runs slow for seconds once loaded again — the simulator alone, 20 s idle: 763, 609,
 * 486 µs a request in its first seconds against ~300 loaded all along; the relay, idle 30 s while
 * the simulator kept busy: 1,761, 1,299, 954 against ~400 (docs/PERFORMANCE.md, issue 30,
 * eleventh pass). A window straight after another target's would measure that wake-up.
 */
const LEAD_IN = 1 / 3;

/**
 * One row of the table against every target: each warms up, then the row's measured time is cut
 * into `slices` windows taken in turn across the targets (windowOrder), and each target's windows
 * are summed into its measurement. On a shared machine a neighbour's burst, or a slow stretch of
 * the host, lasts seconds: measured one target after the other, it lands on one target's whole
 * figure; measured in turns, it spreads over all of them (docs/PERFORMANCE.md, issue 30, eleventh
 * pass). One slice is the sequential measurement.
 */
export async function measureRow(loads: readonly TargetLoad[], slices: number): Promise<LoadMeasurement[]> {
  const windows = loads.map((): LoadWindow[] => []);
  for (const [round, order] of windowOrder(loads.length, slices).entries()) {
    for (const index of order) {
      const { target, plan } = loads[index] as TargetLoad;
      // Each target's first window follows its own warm-up, as a sequential measurement's does;
      // every later one a third of it (LEAD_IN).
      await warmUp(target, round === 0 ? plan : { ...plan, warmupSeconds: plan.warmupSeconds * LEAD_IN });
      windows[index]?.push(await measureWindow(target, plan, plan.durationSeconds / slices));
    }
  }
  return loads.map(({ target, plan }, index) => summariseWindows(target.id, plan, windows[index] ?? []));
}

/**
 * Before the table: each target serves each workload of its rows, at 8 connections, for
 * `seconds`, one target after the other. A fresh process meets each kind of request cold, once:
 * a fresh relay's first seconds of non-stream · 1 cost 2,402, 1,239, 1,292, 757, 401, 259 µs a
 * request, its first of stream after them 1,532, 1,158, 1,026, 858, 480, 459, and either again
 * later starts near its steady cost (docs/PERFORMANCE.md, issue 30, eleventh pass). Without this
 * the first row of each kind would measure that once-only cost, and only for the targets whose
 * code is the larger. One load per target and workload, whatever rows repeat it.
 */
export async function prewarm(loads: readonly TargetLoad[], seconds: number): Promise<void> {
  const seen = new Set<string>();
  for (const { target, plan } of loads) {
    const key = `${target.id} ${plan.mode}`;
    if (seen.has(key)) continue;
    seen.add(key);
    await warmUp(target, { ...plan, connections: 8, warmupSeconds: seconds });
  }
}
