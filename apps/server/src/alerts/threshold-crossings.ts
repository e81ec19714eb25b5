import type { LimitMetric, LimitPeriod } from '@chat-relay/contract';
import type { LimitOwner } from '../storage/types';

/** One limit of one owner as measured after a usage batch: the lifetime quota or a current window. */
export interface MeasuredLimit {
  window: 'lifetime' | { period: LimitPeriod; metric: LimitMetric; timeZone: string; start: string; startsAtMs: number; resetsAtMs: number };
  used: number;
  limit: number;
}

/** Who the limits are of, as an event names them. */
export interface AlertOwner {
  owner: LimitOwner;
  id: number;
  accountId: number;
  tokenId: number | null;
  name: string;
}

/** A threshold reached: its mark (inserted once across instances) and the event's data. */
export interface Crossing {
  mark: { key: string; expiresAt: string | null };
  data: {
    owner: LimitOwner;
    token_id: number | null;
    account_id: number;
    name: string;
    window: 'lifetime' | { period: LimitPeriod; metric: LimitMetric; time_zone: string; starts_at: string; resets_at: string };
    used: number;
    limit: number;
    ratio: number;
    threshold: number;
  };
}

/**
 * The mark of one crossing: once per owner, window (its period and first day, or the lifetime
 * quota at its current limit), metric and threshold. The lifetime key holds the limit, so a
 * raised limit can alert again; a window's key holds its first day, so each window alerts anew.
 */
export function alertMarkKey(owner: Pick<AlertOwner, 'owner' | 'id'>, measured: MeasuredLimit, threshold: number): string {
  const where = measured.window === 'lifetime' ? `lifetime:cost:${measured.limit}` : `${measured.window.period}:${measured.window.start}:${measured.window.metric}`;
  return `${owner.owner}:${owner.id}:${where}:${threshold}`;
}

/** Rounded to 4 decimals: a ratio to read, not to compute with. */
const ratioOf = (used: number, limit: number): number => Math.round((used / limit) * 10_000) / 10_000;

/**
 * Every threshold (percent) each limit has reached: used/limit ≥ threshold/100. Limits of 0 or
 * less alert nothing (a zero quota refuses everything; there is nothing to warn of).
 */
export function crossingsOf(owner: AlertOwner, measured: readonly MeasuredLimit[], thresholds: readonly number[]): Crossing[] {
  const crossings: Crossing[] = [];
  for (const limit of measured) {
    if (!(limit.limit > 0)) continue;
    for (const threshold of thresholds) {
      // In integers: 80 % of 1 000 000 is reached at 800 000, not at 799 999.99….
      if (limit.used * 100 < limit.limit * threshold) continue;
      const window = limit.window;
      crossings.push({
        mark: { key: alertMarkKey(owner, limit, threshold), expiresAt: window === 'lifetime' ? null : new Date(window.resetsAtMs).toISOString() },
        data: {
          owner: owner.owner,
          token_id: owner.tokenId,
          account_id: owner.accountId,
          name: owner.name,
          window:
            window === 'lifetime'
              ? 'lifetime'
              : {
                  period: window.period,
                  metric: window.metric,
                  time_zone: window.timeZone,
                  starts_at: new Date(window.startsAtMs).toISOString(),
                  resets_at: new Date(window.resetsAtMs).toISOString(),
                },
          used: limit.used,
          limit: limit.limit,
          ratio: ratioOf(limit.used, limit.limit),
          threshold,
        },
      });
    }
  }
  return crossings;
}
