import { PeriodicLimitSchema, type PeriodicLimit } from '@chat-relay/contract';
import type { OwnerLimits } from '../limit-types';
import { jsonColumn, type JsonColumn, type RowCodec } from './codec';

/** The periodic-limit columns tokens and accounts both carry (issue 32), as both backends read them. */
export interface OwnerLimitColumns {
  periodic_limits: JsonColumn<unknown> | null;
  time_zone: string | null;
  alert_thresholds: JsonColumn<unknown> | null;
}

export const OWNER_LIMIT_COLUMN_NAMES: readonly string[] = ['periodic_limits', 'time_zone', 'alert_thresholds'];

/** The column's JSON, or undefined when it is not JSON at all (a value written by hand). */
function parsed(stored: JsonColumn<unknown> | null, codec: RowCodec): unknown {
  try {
    return codec.json(stored);
  } catch {
    return undefined;
  }
}

/**
 * The limits as stored, read defensively: a limit that does not parse is left out (never
 * enforced half-read), thresholds that do not parse are the relay's default (null). The API
 * validates what it writes, so this only matters for rows written by hand or by a newer version.
 */
export function ownerLimitsOf(row: OwnerLimitColumns, codec: RowCodec): OwnerLimits {
  const limits = parsed(row.periodic_limits, codec);
  const thresholds = parsed(row.alert_thresholds, codec);
  return {
    periodicLimits: Array.isArray(limits)
      ? limits.flatMap((limit: unknown): PeriodicLimit[] => {
          const one = PeriodicLimitSchema.safeParse(limit);
          return one.success ? [one.data] : [];
        })
      : [],
    timeZone: typeof row.time_zone === 'string' && row.time_zone !== '' ? row.time_zone : null,
    alertThresholds:
      Array.isArray(thresholds) && thresholds.every((value: unknown) => typeof value === 'number' && Number.isFinite(value))
        ? (thresholds as number[])
        : null,
  };
}

/** The values of (periodic_limits, time_zone, alert_thresholds) as written: JSON as text. */
export const ownerLimitValues = (limits: Partial<OwnerLimits>): [string, string | null, string | null] => [
  jsonColumn(limits.periodicLimits ?? []) ?? '[]',
  limits.timeZone ?? null,
  jsonColumn(limits.alertThresholds ?? null),
];

/**
 * `patch` without its keys set to undefined: merged over a record, a field a caller left out
 * (`{ timeZone: undefined }` from an optional input) keeps what is stored instead of clearing it.
 */
export function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}
