import { LimitPeriodSchema, type LimitMetric } from '@chat-relay/contract';
import type { LimitOwner, WindowKey, WindowReservation, WindowRefusal, WindowUsage } from '../limit-types';
import type { UsageLogEntry } from '../usage-types';
import type { JsonColumn, RowCodec } from './codec';

/**
 * Windows as both backends store them: `quota_windows` rows, and the keys a reservation records
 * (`quota_reservations.windows`, JSON) so that its settlement or give-back corrects the same windows.
 */

/** A window's key as a reservation records it (snake_case JSON). */
export interface StoredWindowKey {
  owner: LimitOwner;
  owner_id: number;
  period: WindowKey['period'];
  start: string;
}

export const storedWindowKey = (key: WindowKey): StoredWindowKey => ({ owner: key.owner, owner_id: key.ownerId, period: key.period, start: key.start });

/**
 * The keys a reservation recorded; anything unreadable is skipped (a row written by hand): a
 * window it cannot name is left as it is rather than the settlement failing.
 */
export function windowKeysOf(stored: JsonColumn<unknown> | null, codec: RowCodec): WindowKey[] {
  let value: unknown;
  try {
    value = codec.json(stored);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown): WindowKey[] => {
    if (typeof item !== 'object' || item === null) return [];
    const { owner, owner_id: ownerId, period, start } = item as Record<string, unknown>;
    if ((owner !== 'token' && owner !== 'account') || typeof ownerId !== 'number' || typeof start !== 'string') return [];
    const parsedPeriod = LimitPeriodSchema.safeParse(period);
    return parsedPeriod.success ? [{ owner, ownerId, period: parsedPeriod.data, start }] : [];
  });
}

/**
 * The order every transaction locks windows in (after tokens, then accounts): owner, owner id,
 * period, start — strings by their UTF-16 units, which for these ASCII keys is PostgreSQL's
 * COLLATE "C" order. Two instances so never wait on each other's windows in a cycle.
 */
export function compareWindowKeys(a: WindowKey, b: WindowKey): number {
  return byText(a.owner, b.owner) || a.ownerId - b.ownerId || byText(a.period, b.period) || byText(a.start, b.start);
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A map key naming one window. */
export const windowId = (key: WindowKey): string => `${key.owner}/${key.ownerId}/${key.period}/${key.start}`;

/** The metrics in the order a refusal names the first that refuses. */
export const LIMIT_METRICS: readonly LimitMetric[] = ['cost', 'requests', 'tokens'];

/**
 * What a reservation needs free in a window: the amount but at least 1 micro-USD (a window used
 * up admits nothing, not even a free request), one request, its tokens but at least 1.
 */
export function neededIn(amount: number, tokens: number): Record<LimitMetric, number> {
  return { cost: Math.max(amount, 1), requests: 1, tokens: Math.max(tokens, 1) };
}

/** The first metric of `window` that refuses `needed` on top of `used`, or undefined. */
export function windowRefusal(window: WindowReservation, used: WindowUsage, needed: Record<LimitMetric, number>): WindowRefusal | undefined {
  for (const metric of LIMIT_METRICS) {
    const limit = window.limits[metric];
    if (limit !== null && limit !== undefined && used[metric] + needed[metric] > limit) return { window, metric, used: used[metric] };
  }
  return undefined;
}

/** Changes to add to windows, summed per window: one statement (or one per window on SQLite) for a whole batch. */
export class WindowDeltas {
  private readonly deltas = new Map<string, { key: WindowKey } & WindowUsage>();

  add(key: WindowKey, change: WindowUsage): void {
    const id = windowId(key);
    const current = this.deltas.get(id) ?? { key, cost: 0, requests: 0, tokens: 0 };
    current.cost += change.cost;
    current.requests += change.requests;
    current.tokens += change.tokens;
    this.deltas.set(id, current);
  }

  /** The non-zero changes, in lock order. */
  sorted(): Array<{ key: WindowKey } & WindowUsage> {
    return [...this.deltas.values()]
      .filter((delta) => delta.cost !== 0 || delta.requests !== 0 || delta.tokens !== 0)
      .sort((a, b) => compareWindowKeys(a.key, b.key));
  }
}

/**
 * Whether a usage row may have a reservation to settle: quota reserved, windows counted in, or a
 * task's row (a free task's reservation may hold windows). Rows of none cost no lookup.
 */
export const settlesSomething = (entry: UsageLogEntry, heldBy: string | null): boolean =>
  entry.quotaReserved > 0 || entry.windowsReserved === true || heldBy !== null;
