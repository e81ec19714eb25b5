import type { CreatedObject } from '@chat-relay/wire';
import type { Logger } from '../../logger';
import type { UpstreamObjectKind, UpstreamObjectStore } from '../../storage/types';

export interface UpstreamObjectsOptions {
  /** How long an object is remembered (RELAY_RESPONSES_TTL: as long as the responses holding it). */
  ttlMs: number;
  /** A shared database: how long a lookup of an id not found yet keeps asking (another instance may be writing it). */
  otherWritersMs?: number;
}

/** How long a lookup waits for the same account's answers under way to record what they created. */
const WAIT_FOR_ANSWERS_MS = 5_000;
const ASK_AGAIN_AFTER_MS = [25, 50, 100, 200, 300, 400];
const PURGE_INTERVAL_MS = 3_600_000;

/**
 * Which account created which object at a provider through the relay (issue 26): the items of
 * native responses and the containers code ran in. A later passthrough request may name only its
 * own account's. An answer under way registers first (`expect`) and records when it ends; a
 * lookup by the same account waits for it (briefly), so a client that refers to an item the
 * moment its answer ended finds it.
 */
export class UpstreamObjects {
  private readonly underWay = new Map<number, Set<Promise<void>>>();
  private purgeTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: UpstreamObjectStore,
    private readonly logger: Logger,
    private readonly options: UpstreamObjectsOptions,
  ) {}

  /** Starts the hourly purge of expired rows. */
  start(): void {
    if (this.purgeTimer) return;
    this.purgeTimer = setInterval(() => void this.purge(), PURGE_INTERVAL_MS);
    this.purgeTimer.unref();
  }

  /**
   * An answer of `accountId` from `channelId` is under way: returns what to call, once, with what
   * it created — the write it starts is what lookups of the account wait for. Never rejects.
   */
  expect(accountId: number, channelId: number): (created: readonly CreatedObject[]) => Promise<void> {
    let finish: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const pending = this.underWay.get(accountId) ?? new Set<Promise<void>>();
    pending.add(done);
    this.underWay.set(accountId, pending);
    let called = false;
    return async (created) => {
      if (called) return;
      called = true;
      try {
        await this.remember(accountId, channelId, created);
      } finally {
        pending.delete(done);
        if (pending.size === 0 && this.underWay.get(accountId) === pending) this.underWay.delete(accountId);
        finish();
      }
    };
  }

  private async remember(accountId: number, channelId: number, created: readonly CreatedObject[]): Promise<void> {
    if (created.length === 0) return;
    const now = Date.now();
    const createdAt = new Date(now).toISOString();
    const expiresAt = new Date(now + this.options.ttlMs).toISOString();
    try {
      await this.store.remember(created.map((object) => ({ ...object, accountId, channelId, createdAt, expiresAt })));
    } catch (error) {
      // The answer has gone to the caller already: a later reference to these is refused, not lost money.
      this.logger.error({ err: error, accountId, objects: created.length }, 'could not record the objects an answer created');
    }
  }

  /** Of `ids`, those `accountId` created (after its answers under way have recorded theirs). */
  async owned(accountId: number, kind: UpstreamObjectKind, ids: readonly string[]): Promise<ReadonlySet<string>> {
    if (ids.length === 0) return new Set();
    const pending = this.underWay.get(accountId);
    if (pending && pending.size > 0) await waitAtMost(Promise.all(pending), WAIT_FOR_ANSWERS_MS);
    const deadline = Date.now() + (this.options.otherWritersMs ?? 0);
    const found = new Set<string>();
    for (const wait of [...ASK_AGAIN_AFTER_MS, 0]) {
      for (const id of await this.store.owned(accountId, kind, ids.filter((id) => !found.has(id)), new Date().toISOString())) found.add(id);
      if (found.size === new Set(ids).size || wait === 0 || Date.now() + wait > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    return found;
  }

  async purge(): Promise<void> {
    try {
      const purged = await this.store.purgeExpired(new Date().toISOString());
      if (purged > 0) this.logger.info({ purged }, 'expired upstream objects purged');
    } catch (error) {
      this.logger.error({ err: error }, 'purging expired upstream objects failed');
    }
  }

  /** Stops the purge and waits for the records under way. */
  async close(): Promise<void> {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
    this.purgeTimer = undefined;
    await waitAtMost(Promise.all([...this.underWay.values()].flatMap((pending) => [...pending])), WAIT_FOR_ANSWERS_MS);
  }
}

/** `promise`, or nothing after `ms`: whichever comes first. */
async function waitAtMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
