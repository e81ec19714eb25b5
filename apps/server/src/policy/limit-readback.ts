import type { LimitWindow, PeriodicLimit } from '@chat-relay/contract';
import { currentWindow } from '../core/limit-windows';
import type { LimitOwner, WindowKey, WindowUsage } from '../storage/limit-types';
import type { QuotaStore } from '../storage/types';
import { limitWindowsOf, type LimitsSettings } from './periodic-limits';

/** An owner whose windows are read back: a token or an account record. */
export interface OwnerOfLimits {
  id: number;
  periodicLimits: readonly PeriodicLimit[];
  timeZone: string | null;
}

/** Each owner's windows, by owner kind and id (an owner not asked for, or without limits: none). */
export type WindowsOf = (owner: LimitOwner, id: number) => LimitWindow[];

export interface LimitReadbackDeps {
  quota: Pick<QuotaStore, 'windowUsage'>;
  limits: LimitsSettings;
  /** Told of each window read back (the `/metrics` window gauges); must not throw. */
  observe?(owner: LimitOwner, id: number, windows: readonly LimitWindow[]): void;
}

const ZERO: WindowUsage = { cost: 0, requests: 0, tokens: 0 };
const keyText = (key: WindowKey): string => `${key.owner}|${key.ownerId}|${key.period}|${key.start}`;

/**
 * The current windows of every periodic limit of `owners` — a page of tokens, their accounts —
 * with what each has used, read in ONE `windowUsage` call whatever the page's size (none at all
 * when no owner has a limit). What is used includes what requests under way reserved.
 */
export async function readWindows(deps: LimitReadbackDeps, owners: ReadonlyArray<{ owner: LimitOwner; record: OwnerOfLimits }>): Promise<WindowsOf> {
  const nowMs = deps.limits.clock();
  const keys = new Map<string, WindowKey>();
  for (const { owner, record } of owners) {
    const timeZone = record.timeZone ?? deps.limits.defaultTimeZone;
    for (const limit of record.periodicLimits) {
      const key: WindowKey = { owner, ownerId: record.id, period: limit.period, start: currentWindow(limit.period, timeZone, nowMs).start };
      keys.set(keyText(key), key);
    }
  }
  const asked = [...keys.values()];
  const usage = asked.length > 0 ? await deps.quota.windowUsage(asked) : [];
  const used = new Map<string, WindowUsage>();
  asked.forEach((key, index) => used.set(keyText(key), usage[index] ?? ZERO));
  const windows = new Map<string, LimitWindow[]>();
  for (const { owner, record } of owners) {
    const timeZone = record.timeZone ?? deps.limits.defaultTimeZone;
    const read = limitWindowsOf(record.periodicLimits, timeZone, nowMs, (period, start) => used.get(keyText({ owner, ownerId: record.id, period, start })) ?? ZERO);
    windows.set(`${owner}|${record.id}`, read);
    if (read.length > 0) deps.observe?.(owner, record.id, read);
  }
  return (owner, id) => windows.get(`${owner}|${id}`) ?? [];
}
