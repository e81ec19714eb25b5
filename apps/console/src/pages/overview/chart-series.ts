import type { UsagePoint, UsageSeries } from '@chat-relay/contract';
import { bucketStarts, floorToBucket, type ChartWindow } from './usage-range';

/** Groups drawn on their own; the rest are summed into "other" so a chart stays readable. */
export const TOP_GROUPS = 6;

export interface BucketValues {
  requests: number;
  errors: number;
  /** Prompt + completion. */
  tokens: number;
  /** Micro-USD. */
  cost: number;
  /** errors / requests; null for a bucket without requests (a gap, not 0%). */
  errorRate: number | null;
}
export type Metric = keyof BucketValues;

export interface ChartLine {
  /** The Recharts series id: `g0`…`g5`, or `other`. */
  id: string;
  /** The API's group key (null: total, or requests without a channel/token); absent for "other". */
  key: string | null;
  other: boolean;
  color: string;
}

export interface ChartRow {
  /** Bucket start, ISO UTC. */
  time: string;
  byLine: Record<string, BucketValues>;
}

export interface ChartSeries {
  lines: ChartLine[];
  rows: ChartRow[];
}

interface Sums {
  requests: number;
  errors: number;
  tokens: number;
  cost: number;
}
const zero = (): Sums => ({ requests: 0, errors: 0, tokens: 0, cost: 0 });
const withRate = (sums: Sums): BucketValues => ({ ...sums, errorRate: sums.requests > 0 ? sums.errors / sums.requests : null });
const add = (sums: Sums, point: UsagePoint): void => {
  sums.requests += point.requests;
  sums.errors += point.errors;
  sums.tokens += point.prompt_tokens + point.completion_tokens;
  sums.cost += point.cost;
};

/** The group keys by requests over the whole series (ties by key, so the order is stable). */
function rankKeys(points: readonly UsagePoint[]): Array<string | null> {
  const requests = new Map<string | null, number>();
  for (const point of points) requests.set(point.key, (requests.get(point.key) ?? 0) + point.requests);
  return [...requests.entries()]
    .sort(([keyA, a], [keyB, b]) => b - a || String(keyA ?? '').localeCompare(String(keyB ?? '')))
    .map(([key]) => key);
}

/**
 * The series as the charts draw it: one row per bucket of the window (buckets without requests
 * filled with zeros), one line per top group, the rest summed into "other".
 */
export function toChartSeries(series: UsageSeries, window: ChartWindow): ChartSeries {
  const ranked = rankKeys(series.data);
  const top = ranked.slice(0, TOP_GROUPS);
  const hasOther = ranked.length > TOP_GROUPS;
  const lines: ChartLine[] = top.map((key, index) => ({ id: `g${index}`, key, other: false, color: `var(--chart-${index + 1})` }));
  if (hasOther) lines.push({ id: 'other', key: null, other: true, color: 'var(--muted)' });
  const lineOfKey = new Map(top.map((key, index) => [key, `g${index}`]));

  const sumsByBucket = new Map<string, Map<string, Sums>>();
  for (const time of bucketStarts(window)) sumsByBucket.set(time, new Map(lines.map((line) => [line.id, zero()])));
  for (const point of series.data) {
    const bucket = sumsByBucket.get(floorToBucket(new Date(point.time), window.bucket).toISOString());
    // Outside the window asked for (the server rounds the same way, so this is only a stray row).
    if (!bucket) continue;
    const sums = bucket.get(lineOfKey.get(point.key) ?? 'other');
    if (sums) add(sums, point);
  }

  const rows = [...sumsByBucket.entries()].map(([time, sums]) => ({
    time,
    byLine: Object.fromEntries([...sums.entries()].map(([id, lineSums]) => [id, withRate(lineSums)])),
  }));
  return { lines, rows };
}

