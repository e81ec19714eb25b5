/** Nearest-rank percentile (0 < p ≤ 100) of values sorted ascending; undefined when empty. */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** Sorts a copy and returns its p50 and p99. */
export function latencyPercentiles(values: readonly number[]): { p50: number | undefined; p99: number | undefined } {
  const sorted = Float64Array.from(values).sort();
  return { p50: percentileOfSorted(sorted, 50), p99: percentileOfSorted(sorted, 99) };
}

/** value / reference, or undefined when either is missing or the reference is not positive. */
export function ratio(value: number | undefined, reference: number | undefined): number | undefined {
  if (value === undefined || reference === undefined || !(reference > 0)) return undefined;
  return value / reference;
}

/** value − reference, or undefined when either is missing. */
export function difference(value: number | undefined, reference: number | undefined): number | undefined {
  return value === undefined || reference === undefined ? undefined : value - reference;
}

/** CPU time in µs per request from a tick count (`/proc/<pid>/stat`), or undefined without requests. */
export function cpuMicrosPerRequest(ticks: number | undefined, ticksPerSecond: number, requests: number): number | undefined {
  if (ticks === undefined || requests <= 0 || ticksPerSecond <= 0) return undefined;
  return (ticks / ticksPerSecond / requests) * 1_000_000;
}

/** Bytes of RSS growth per held stream, or undefined when a reading is missing. */
export function growthPerItem(before: number | undefined, peak: number | undefined, items: number): number | undefined {
  if (before === undefined || peak === undefined || items <= 0) return undefined;
  return (peak - before) / items;
}
