import type { Logger } from '../../logger';
import type { ResponseStore, StoredResponseRecord, StoredResponseUsage } from '../../storage/types';

/** The longest `previous_response_id` chain replayed to a bridged channel. */
export const MAX_RESPONSE_CHAIN = 1000;
const PURGE_INTERVAL_MS = 3_600_000;
/** How many of an account's latest stored responses an `item_reference` is looked up in. */
export const REFERABLE_RESPONSES = 100;
const DAY_MS = 86_400_000;

export interface StoredResponsesOptions {
  /** RELAY_RESPONSES_STORE: false keeps nothing (`previous_response_id` then works on native channels only). */
  store: boolean;
  /** RELAY_RESPONSES_TTL, in milliseconds. */
  ttlMs: number;
  /**
   * RELAY_RESPONSES_MAX_BYTES_PER_ACCOUNT and RELAY_RESPONSES_MAX_PER_ACCOUNT: what one account
   * keeps at most. Storing past either removes that account's oldest responses first.
   */
  maxBytesPerAccount: number;
  maxPerAccount: number;
  /**
   * A shared database (several instances): how long a lookup of an id not found yet keeps asking,
   * since the instance that answered it may still be writing it. 0 (one instance) asks once.
   */
  otherWritersMs?: number;
}

const MIB = 1024 * 1024;

/** Without RELAY_RESPONSES_*: stored for 30 days, at most 100 MiB and 10,000 responses per account. */
export const DEFAULT_STORED_RESPONSES: StoredResponsesOptions = { store: true, ttlMs: 30 * DAY_MS, maxBytesPerAccount: 100 * MIB, maxPerAccount: 10_000 };

/** Waits between asking again for a response another instance may still be writing. */
const ASK_AGAIN_AFTER_MS = [25, 50, 100, 200, 300, 400];

/**
 * The Responses API's state as the relay keeps it (SPEC §8): responses created through the
 * bridge, with their input items, and for native ones only where they live (channel and key).
 * The one place the relay stores prompts and answers.
 *
 * A write is registered before the answer that names the response reaches the caller, and a
 * read of that id waits for it: a client that sends `previous_response_id` the moment it has
 * read `response.completed` finds the response even if the database has not finished writing.
 * When another instance answered it (`otherWritersMs`), a miss is asked again a few times first.
 */
export class StoredResponses {
  private readonly pending = new Map<string, Promise<void>>();
  private purgeTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: ResponseStore,
    private readonly logger: Logger,
    readonly options: StoredResponsesOptions = DEFAULT_STORED_RESPONSES,
  ) {}

  /** Starts the background purge of expired responses: now, then hourly. */
  start(): void {
    if (this.purgeTimer) return;
    void this.purge();
    this.purgeTimer = setInterval(() => void this.purge(), PURGE_INTERVAL_MS);
    this.purgeTimer.unref();
  }

  /** Expiry of a response created at `createdAtMs`. */
  expiresAt(createdAtMs: number): string {
    return new Date(createdAtMs + this.options.ttlMs).toISOString();
  }

  /**
   * Keeps `record`, making room by removing the account's oldest responses (the answer was given
   * already: a full store never refuses it); the write is awaited by readers of the same id. A
   * response larger than the account's whole byte bound is not kept. Never rejects.
   */
  remember(record: StoredResponseRecord): Promise<void> {
    const limits = { now: new Date().toISOString(), maxBytes: this.options.maxBytesPerAccount, maxCount: this.options.maxPerAccount };
    const write = this.store.put(record, limits).then(
      (outcome) => {
        const where = { responseId: record.id, accountId: record.accountId };
        if (!outcome.stored) this.logger.warn({ ...where, maxBytes: limits.maxBytes }, 'response not stored: larger than RELAY_RESPONSES_MAX_BYTES_PER_ACCOUNT');
        else if (outcome.evicted > 0) this.logger.debug({ ...where, evicted: outcome.evicted }, "the account's oldest stored responses removed to make room");
      },
      (error: unknown) => {
        this.logger.error({ err: error, responseId: record.id }, 'could not store a response');
      },
    );
    const tracked = write.finally(() => {
      if (this.pending.get(record.id) === tracked) this.pending.delete(record.id);
    });
    this.pending.set(record.id, tracked);
    return tracked;
  }

  async find(id: string, accountId: number): Promise<StoredResponseRecord | undefined> {
    await this.pending.get(id);
    return this.askingAgain(() => this.store.get(id, accountId, new Date().toISOString()));
  }

  /** `read`, and while it finds nothing, again after short waits within `otherWritersMs`. */
  private async askingAgain<T>(read: () => Promise<T | undefined>): Promise<T | undefined> {
    const deadline = Date.now() + (this.options.otherWritersMs ?? 0);
    for (const wait of ASK_AGAIN_AFTER_MS) {
      const found = await read();
      if (found !== undefined || Date.now() + wait > deadline) return found;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    return read();
  }

  /** The conversation ending at `id`, oldest first. */
  async chain(id: string, accountId: number): Promise<StoredResponseRecord[]> {
    await this.pending.get(id);
    return this.store.chain(id, accountId, new Date().toISOString(), MAX_RESPONSE_CHAIN);
  }

  /**
   * Items of the account's latest bridged responses that `item_reference`s name (the AI SDK names
   * an earlier step's output this way). Waits for every write under way: the response holding the
   * item may have been answered a moment ago.
   */
  async findItems(accountId: number, itemIds: readonly string[]): Promise<Record<string, unknown>[]> {
    if (itemIds.length === 0) return [];
    await Promise.all(this.pending.values());
    return this.store.findItems(accountId, itemIds, new Date().toISOString(), REFERABLE_RESPONSES);
  }

  /** What each account keeps now (count and bytes), for the account views. */
  async usage(accountIds: readonly number[]): Promise<Map<number, StoredResponseUsage>> {
    return this.store.usage(accountIds, new Date().toISOString());
  }

  async delete(id: string, accountId: number): Promise<boolean> {
    await this.pending.get(id);
    return this.store.delete(id, accountId);
  }

  async purge(): Promise<void> {
    try {
      const purged = await this.store.purgeExpired(new Date().toISOString());
      if (purged > 0) this.logger.info({ purged }, 'expired stored responses purged');
    } catch (error) {
      this.logger.error({ err: error }, 'purging expired stored responses failed');
    }
  }

  /** Stops the purge and waits for writes under way. */
  async close(): Promise<void> {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
    this.purgeTimer = undefined;
    await Promise.all(this.pending.values());
  }
}
