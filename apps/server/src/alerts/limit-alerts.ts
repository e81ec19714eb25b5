import { currentWindow, type Clock } from '../core/limit-windows';
import { throttledWarn, type ThrottledWarn } from '../core/throttled-log';
import type { Logger } from '../logger';
import type { AccountRecord, AccountStore, OwnerLimits, QuotaStore, TokenRecord, TokenStore, UsageLogEntry, WindowKey } from '../storage/types';
import { crossingsOf, type AlertOwner, type MeasuredLimit } from './threshold-crossings';
import type { WebhookEvents } from './webhook-events';

export interface LimitAlertsDeps {
  tokens: TokenStore;
  accounts: AccountStore;
  quota: QuotaStore;
  events: WebhookEvents;
  logger: Logger;
  clock: Clock;
  /** RELAY_ALERT_THRESHOLDS: percent, for owners with none of their own. */
  defaultThresholds: readonly number[];
  /** RELAY_LIMITS_TIME_ZONE: for owners with none of their own. */
  defaultTimeZone: string;
}

/** Owners looked at per pass at most; the rest wait for the next pass (a burst never makes one long pass). */
const MAX_OWNERS_PER_PASS = 500;
/**
 * Passes start at most this often: on a busy relay the owners of many batches gather in one pass
 * (each read at most once a second), so the database sees a bounded load whatever the traffic.
 */
const MIN_PASS_INTERVAL_MS = 1_000;

interface Owner {
  alert: AlertOwner;
  record: OwnerLimits & { quotaLimit: number | null; quotaUsed: number };
}

/**
 * Threshold alerts (issue 32), never on a request's path: after the usage recorder has written a
 * batch, the tokens and accounts in it are read back — lifetime quota used, and every periodic
 * window's usage in one `windowUsage` call — and each threshold reached is queued as a
 * `limit.threshold` event behind its alert mark, so it goes out once per crossing per window
 * across instances. Passes run one at a time; owners written meanwhile wait for the next.
 */
export class LimitAlerts {
  private readonly tokenIds = new Set<number>();
  private readonly accountIds = new Set<number>();
  private running: Promise<void> | undefined;
  private lastPassAt = -Infinity;
  private readonly warn: ThrottledWarn;

  constructor(private readonly deps: LimitAlertsDeps) {
    this.warn = throttledWarn(deps.logger);
  }

  /** The recorder wrote these rows: their owners are looked at in the next pass. */
  noteWritten(batch: readonly UsageLogEntry[]): void {
    for (const entry of batch) {
      if (entry.tokenId !== null) this.tokenIds.add(entry.tokenId);
      if (entry.accountId !== null) this.accountIds.add(entry.accountId);
    }
    this.schedule();
  }

  /** Resolves once every owner noted so far was looked at (tests; shutdown). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private schedule(): void {
    if (this.running || (this.tokenIds.size === 0 && this.accountIds.size === 0)) return;
    const wait = Math.max(0, this.lastPassAt + MIN_PASS_INTERVAL_MS - performance.now());
    this.running = new Promise<void>((resolve) => {
      if (wait > 0) setTimeout(resolve, wait);
      else resolve();
    })
      .then(() => {
        this.lastPassAt = performance.now();
        return this.pass();
      })
      .catch((error: unknown) => this.warn('pass', error, 'limit alerts not checked this time'))
      .finally(() => {
        this.running = undefined;
        this.schedule();
      });
  }

  private async pass(): Promise<void> {
    const tokenIds = take(this.tokenIds, MAX_OWNERS_PER_PASS);
    const accountIds = take(this.accountIds, MAX_OWNERS_PER_PASS);
    const owners: Owner[] = [];
    for (const token of await Promise.all(tokenIds.map((id) => this.deps.tokens.get(id)))) if (token) owners.push(tokenOwner(token));
    for (const account of await Promise.all(accountIds.map((id) => this.deps.accounts.get(id)))) if (account) owners.push(accountOwner(account));
    const now = this.deps.clock();
    const watched = owners
      .map((owner) => ({ owner, thresholds: owner.record.alertThresholds ?? this.deps.defaultThresholds }))
      .filter(({ owner, thresholds }) => thresholds.length > 0 && (owner.record.quotaLimit !== null || (owner.record.periodicLimits ?? []).length > 0));
    if (watched.length === 0) return;

    const keys: WindowKey[] = [];
    const plans = watched.map(({ owner, thresholds }) => {
      const timeZone = owner.record.timeZone ?? this.deps.defaultTimeZone;
      const windows = (owner.record.periodicLimits ?? []).map((limit) => {
        const window = currentWindow(limit.period, timeZone, now);
        keys.push({ owner: owner.alert.owner, ownerId: owner.alert.id, period: limit.period, start: window.start });
        return { limit, window, index: keys.length - 1 };
      });
      return { owner, thresholds, timeZone, windows };
    });
    const usage = keys.length > 0 ? await this.deps.quota.windowUsage(keys) : [];

    for (const { owner, thresholds, timeZone, windows } of plans) {
      const measured: MeasuredLimit[] = [];
      if (owner.record.quotaLimit !== null) measured.push({ window: 'lifetime', used: owner.record.quotaUsed, limit: owner.record.quotaLimit });
      for (const { limit, window, index } of windows) {
        const counted = usage[index];
        if (!counted) continue;
        measured.push({
          window: { period: limit.period, metric: limit.metric, timeZone, start: window.start, startsAtMs: window.startsAtMs, resetsAtMs: window.resetsAtMs },
          used: counted[limit.metric],
          limit: limit.limit,
        });
      }
      for (const crossing of crossingsOf(owner.alert, measured, thresholds)) {
        await this.deps.events.emit('limit.threshold', crossing.data, crossing.mark);
      }
    }
  }
}

/** Up to `count` ids out of `ids`, removed from it. */
function take(ids: Set<number>, count: number): number[] {
  const taken: number[] = [];
  for (const id of ids) {
    if (taken.length >= count) break;
    taken.push(id);
    ids.delete(id);
  }
  return taken;
}

const tokenOwner = (token: TokenRecord): Owner => ({
  alert: { owner: 'token', id: token.id, accountId: token.accountId, tokenId: token.id, name: token.name },
  record: token,
});

const accountOwner = (account: AccountRecord): Owner => ({
  alert: { owner: 'account', id: account.id, accountId: account.id, tokenId: null, name: account.name },
  record: account,
});
