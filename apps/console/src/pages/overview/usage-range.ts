/** The ranges the overview offers, and the UTC buckets each one covers. */

export type Bucket = 'hour' | 'day';
export type RangeId = '24h' | '7d' | '30d';

export interface UsageRange {
  id: RangeId;
  label: string;
  bucket: Bucket;
  /** How many buckets, the one holding "now" included. */
  buckets: number;
}

const LAST_24_HOURS: UsageRange = { id: '24h', label: 'Last 24 hours', bucket: 'hour', buckets: 24 };

export const USAGE_RANGES: readonly UsageRange[] = [
  LAST_24_HOURS,
  { id: '7d', label: 'Last 7 days', bucket: 'hour', buckets: 7 * 24 },
  { id: '30d', label: 'Last 30 days', bucket: 'day', buckets: 30 },
];

export const rangeById = (id: string): UsageRange => USAGE_RANGES.find((range) => range.id === id) ?? LAST_24_HOURS;

/** What one request for a series covers: `from` is a bucket start, `to` is inside the last bucket. */
export interface ChartWindow {
  from: Date;
  to: Date;
  bucket: Bucket;
}

export const BUCKET_MS: Readonly<Record<Bucket, number>> = { hour: 3_600_000, day: 86_400_000 };

/** The start of the UTC hour or day holding `date` (the server buckets in UTC). */
export function floorToBucket(date: Date, bucket: Bucket): Date {
  const step = BUCKET_MS[bucket];
  return new Date(Math.floor(date.getTime() / step) * step);
}

export function windowOf(range: UsageRange, now: Date): ChartWindow {
  const lastStart = floorToBucket(now, range.bucket).getTime();
  return { from: new Date(lastStart - (range.buckets - 1) * BUCKET_MS[range.bucket]), to: now, bucket: range.bucket };
}

/** A runaway window (a bad `to`) must not make a million empty rows; the API caps series the same way. */
const MAX_BUCKETS = 31 * 24;

/** Every bucket start in the window, as ISO strings, oldest first. */
export function bucketStarts(window: ChartWindow): string[] {
  const step = BUCKET_MS[window.bucket];
  const starts: string[] = [];
  const last = floorToBucket(window.to, window.bucket).getTime();
  for (let time = floorToBucket(window.from, window.bucket).getTime(); time <= last && starts.length < MAX_BUCKETS; time += step) {
    starts.push(new Date(time).toISOString());
  }
  return starts;
}

const hourFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A bucket's start as an axis or table label: hours in local time, days as the UTC date they are. */
export const formatBucket = (iso: string, bucket: Bucket): string => (bucket === 'hour' ? hourFormat : dayFormat).format(new Date(iso));
