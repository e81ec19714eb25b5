import { microUsdToUsd, type LimitMetric, type LimitPeriod, type LimitWindow, type PeriodicLimit } from '@chat-relay/contract';
import { RelayError } from '@chat-relay/wire';
import { currentWindow, secondsToReset, type CalendarWindow, type Clock } from '../core/limit-windows';
import type { LimitOwner, WindowKey, WindowRefusal, WindowReservation, WindowUsage } from '../storage/limit-types';
import type { TokenRecord } from '../storage/types';
import { formatOpenAiDuration } from './openai-duration';

/**
 * Periodic limits on the hot path (issue 32): which windows a request counts in, and how a
 * window's refusal reads in every dialect. The windows ride the one reservation round trip
 * (QuotaStore.reserve): nothing here reads storage.
 */
export interface LimitsSettings {
  /** RELAY_LIMITS_TIME_ZONE: where an owner without a time zone of its own counts its days (UTC by default). */
  defaultTimeZone: string;
  clock: Clock;
}

export const DEFAULT_LIMITS_TIME_ZONE = 'UTC';
export const DEFAULT_LIMITS: LimitsSettings = { defaultTimeZone: DEFAULT_LIMITS_TIME_ZONE, clock: () => Date.now() };

/** What an owner contributes to a reservation: its limits and where its days start. */
interface LimitedOwner {
  owner: LimitOwner;
  ownerId: number;
  periodicLimits: readonly PeriodicLimit[];
  timeZone: string | null;
}

/** A window a reservation counts in, with the calendar it was worked out from (for a refusal's reset). */
export interface PlannedWindow {
  reservation: WindowReservation;
  calendar: CalendarWindow;
}

const NO_LIMITS: Record<LimitMetric, number | null> = { cost: null, requests: null, tokens: null };

/** Whether the token or its account carries a periodic limit: only then is a window computed. */
export function hasPeriodicLimits(token: TokenRecord): boolean {
  return token.periodicLimits.length > 0 || (token.account?.periodicLimits.length ?? 0) > 0;
}

/** Whether a request of the token takes a reservation at all: a lifetime quota or a periodic limit somewhere. */
export function reservesQuota(token: TokenRecord): boolean {
  // `account` undefined (not read with the token): treated as limited, as the lifetime check always did.
  return token.quotaLimit !== null || token.account?.quotaLimit !== null || hasPeriodicLimits(token);
}

function ownersOf(token: TokenRecord): LimitedOwner[] {
  const owners: LimitedOwner[] = [];
  const account = token.account;
  if (account && account.periodicLimits.length > 0) {
    owners.push({ owner: 'account', ownerId: token.accountId, periodicLimits: account.periodicLimits, timeZone: account.timeZone });
  }
  if (token.periodicLimits.length > 0) owners.push({ owner: 'token', ownerId: token.id, periodicLimits: token.periodicLimits, timeZone: token.timeZone });
  return owners;
}

const compareKeys = (a: WindowKey, b: WindowKey): number =>
  a.owner !== b.owner ? (a.owner < b.owner ? -1 : 1) : a.ownerId !== b.ownerId ? a.ownerId - b.ownerId : a.period < b.period ? -1 : a.period > b.period ? 1 : 0;

/**
 * The current window of each periodic limit of the token and of its account at `nowMs`, one per
 * (owner, period) with the limits per metric, in the order the store locks them (owner —
 * 'account' before 'token' —, owner id, period): no two instances ever wait on each other.
 */
export function plannedWindows(token: TokenRecord, defaultTimeZone: string, nowMs: number): PlannedWindow[] {
  const planned: PlannedWindow[] = [];
  for (const owner of ownersOf(token)) {
    const timeZone = owner.timeZone ?? defaultTimeZone;
    const byPeriod = new Map<LimitPeriod, PlannedWindow>();
    for (const limit of owner.periodicLimits) {
      let window = byPeriod.get(limit.period);
      if (!window) {
        const calendar = currentWindow(limit.period, timeZone, nowMs);
        window = { calendar, reservation: { owner: owner.owner, ownerId: owner.ownerId, period: limit.period, start: calendar.start, limits: { ...NO_LIMITS } } };
        byPeriod.set(limit.period, window);
        planned.push(window);
      }
      window.reservation.limits[limit.metric] = limit.limit;
    }
  }
  return planned.sort((a, b) => compareKeys(a.reservation, b.reservation));
}

const PERIOD_ADJECTIVE: Record<LimitPeriod, string> = { day: 'daily', week: 'weekly', month: 'monthly' };
const METRIC_NOUN: Record<LimitMetric, string> = { cost: 'cost', requests: 'request', tokens: 'token' };

/** An amount of `metric` as a person reads it: USD for cost, a count for the others. */
function amountOf(metric: LimitMetric, amount: number): string {
  if (metric === 'cost') return `${microUsdToUsd(amount)} USD`;
  return `${amount.toLocaleString('en-US')} ${metric}`;
}

/** `in 5h 49m`, `in 3d 2h`, `in 40s`: how long until a reset, to the minute. */
export function humanDelay(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m`;
  return `${seconds}s`;
}

/** The instant `atMs` as local time in `timeZone` with its offset: `2026-11-30T00:00:00+01:00`. */
export function localIso(atMs: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(atMs));
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((each) => each.type === type)?.value ?? '00';
  const wall = `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}`;
  const offsetMinutes = Math.round((Date.parse(`${wall}Z`) - Math.floor(atMs / 1000) * 1000) / 60_000);
  if (offsetMinutes === 0) return `${wall}Z`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${wall}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** What the request needed of each metric: what the store adds for it (max(amount, 1), 1, max(tokens, 1)). */
export interface WindowNeed {
  amount: number;
  tokens: number;
}

const neededOf = (metric: LimitMetric, need: WindowNeed): number => (metric === 'cost' ? Math.max(need.amount, 1) : metric === 'requests' ? 1 : Math.max(need.tokens, 1));

/**
 * The `x-ratelimit-*` headers of a refused window: `x-ratelimit-{limit,remaining,reset}-{metric}-{period}`
 * (`x-ratelimit-limit-requests-day: 100`), OpenAI's names with the period added so they never
 * collide with the per-minute ones; cost in USD, reset as OpenAI writes a duration (`5h49m0s`).
 * And `retry-after`, the seconds to the reset.
 */
export function windowHeaders(metric: LimitMetric, period: LimitPeriod, limit: number, used: number, calendar: CalendarWindow, nowMs: number): Record<string, string> {
  const remaining = Math.max(0, limit - used);
  const shown = (amount: number) => (metric === 'cost' ? microUsdToUsd(amount) : String(amount));
  return {
    'retry-after': String(secondsToReset(calendar, nowMs)),
    [`x-ratelimit-limit-${metric}-${period}`]: shown(limit),
    [`x-ratelimit-remaining-${metric}-${period}`]: shown(remaining),
    [`x-ratelimit-reset-${metric}-${period}`]: formatOpenAiDuration(calendar.resetsAtMs - nowMs),
  };
}

/**
 * 429 insufficient_quota for a window that refused (the dialects turn it into Anthropic's 402
 * billing_error and Gemini's RESOURCE_EXHAUSTED): the message names the window — whose, which
 * metric and period, its limit and time zone, what it used and when it resets —, `Retry-After`
 * the seconds to that reset and the window's `x-ratelimit-*` headers. `lower`: what a request
 * larger than the whole limit must change.
 */
export function windowRefusalError(
  refusal: Pick<WindowRefusal, 'metric' | 'used'> & { window: WindowKey },
  limit: number,
  calendar: CalendarWindow,
  need: WindowNeed,
  nowMs: number,
  lower = 'lower max_tokens (or max_completion_tokens, n) or shorten the prompt',
): RelayError {
  const { metric, used, window } = refusal;
  const whose = window.owner === 'token' ? 'this API key' : 'the account of this API key';
  const needed = neededOf(metric, need);
  const wait = secondsToReset(calendar, nowMs);
  const resets = `it resets at ${localIso(calendar.resetsAtMs, calendar.timeZone)} (in ${humanDelay(wait)})`;
  const head = `The ${PERIOD_ADJECTIVE[window.period]} ${METRIC_NOUN[metric]} limit of ${whose} (${amountOf(metric, limit)} per ${window.period}, ${calendar.timeZone})`;
  const message =
    metric !== 'requests' && needed > limit
      ? `${head} is smaller than what this request may use (${amountOf(metric, needed)}), so it can never be admitted in one ${window.period}: ${lower}.`
      : metric !== 'requests' && used < limit
        ? `${head} has ${amountOf(metric, limit - used)} left (${amountOf(metric, used)} used), less than this request may use (${amountOf(metric, needed)}); ${resets}.`
        : `${head} is reached: ${amountOf(metric, used)} used; ${resets}.`;
  return new RelayError({
    status: 429,
    type: 'insufficient_quota',
    code: 'insufficient_quota',
    message,
    headers: windowHeaders(metric, window.period, limit, used, calendar, nowMs),
  });
}

/**
 * The readback of an owner's periodic limits: each limit's current window, what it used (from
 * `usage`, read by QuotaStore.windowUsage for all the owners of a page at once) and when it resets.
 */
export function limitWindowsOf(limits: readonly PeriodicLimit[], timeZone: string, nowMs: number, usageOf: (period: LimitPeriod, start: string) => WindowUsage): LimitWindow[] {
  return limits.map((limit) => {
    const calendar = currentWindow(limit.period, timeZone, nowMs);
    const used = usageOf(limit.period, calendar.start)[limit.metric];
    return {
      period: limit.period,
      metric: limit.metric,
      limit: limit.limit,
      used,
      remaining: Math.max(0, limit.limit - used),
      limit_usd: limit.metric === 'cost' ? microUsdToUsd(limit.limit) : null,
      used_usd: limit.metric === 'cost' ? microUsdToUsd(used) : null,
      time_zone: timeZone,
      starts_at: new Date(calendar.startsAtMs).toISOString(),
      resets_at: new Date(calendar.resetsAtMs).toISOString(),
    };
  });
}
