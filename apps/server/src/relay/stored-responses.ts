import type { Logger } from '../logger';
import type { ResponseStore, StoredResponseRecord } from '../storage/types';

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
   * A shared database (several instances): how long a lookup of an id not found yet keeps asking,
   * since the instance that answered it may still be writing it. 0 (one instance) asks once.
   */
  otherWritersMs?: number;
}

/** Without RELAY_RESPONSES_STORE and RELAY_RESPONSES_TTL: stored, for 30 days. */
export const DEFAULT_STORED_RESPONSES: StoredResponsesOptions = { store: true, ttlMs: 30 * DAY_MS };

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

  /** Keeps `record`; the write is awaited by readers of the same id. Never rejects. */
  remember(record: StoredResponseRecord): Promise<void> {
    const write = this.store.put(record).catch((error: unknown) => {
      this.logger.error({ err: error, responseId: record.id }, 'could not store a response');
    });
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
