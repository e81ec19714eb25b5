import type { LimitMetric, LimitPeriod, PeriodicLimit } from '@chat-relay/contract';

/**
 * Periodic limits as storage keeps them (issue 32): what a token or an account carries, and the
 * windows their usage is counted in. A window is keyed by its owner, its period and its first
 * local day (core/limit-windows.ts works the day out in the owner's time zone): a new window
 * starts empty by its key, with no job to reset it.
 */
export interface OwnerLimits {
  /** [] = none. */
  periodicLimits: PeriodicLimit[];
  /** IANA zone; null = the relay's default (RELAY_LIMITS_TIME_ZONE). */
  timeZone: string | null;
  /** Percent of any limit; null = the relay's default (RELAY_ALERT_THRESHOLDS). */
  alertThresholds: number[] | null;
}

export type LimitOwner = 'token' | 'account';

/** One window of one owner. */
export interface WindowKey {
  owner: LimitOwner;
  ownerId: number;
  period: LimitPeriod;
  /** The window's first local day, `YYYY-MM-DD`. */
  start: string;
}

/** What a window has counted: micro-USD, requests, tokens (prompt + completion). */
export interface WindowUsage {
  cost: number;
  requests: number;
  tokens: number;
}

/** A window a reservation counts in, with the owner's limits on it (null: no limit on that metric). */
export interface WindowReservation extends WindowKey {
  limits: Record<LimitMetric, number | null>;
}

/** The window and metric that refused a reservation, and what it had used. */
export interface WindowRefusal {
  window: WindowReservation;
  metric: LimitMetric;
  used: number;
}
