import type { ChannelModelSyncError } from '@chat-relay/contract';
import { RelayError } from '@chat-relay/wire';
import type { Logger } from '../logger';
import type { ChannelRecord, ChannelStore } from '../storage/types';
import { CallerGone } from '../core/caller-gone';
import type { ChannelRegistry } from './channel-registry';
import { fetchUpstreamModels, hasModelList, noModelList } from './fetch-upstream-models';
import { isGlob } from '../core/model-pattern';
import type { UpstreamClient } from './upstream/upstream-client';

/** How long creating a channel waits for its first sync before answering; the sync goes on after. */
export const CREATE_SYNC_WAIT_MS = 2_000;

export interface ModelSyncDeps {
  channels: ChannelStore;
  registry: ChannelRegistry;
  upstream: UpstreamClient;
  logger: Logger;
}

/**
 * Whether a channel gains from its upstream's list: only models taken through a glob are listed
 * from it, or narrowed by it. A gizmo pattern (`*-gizmo-*`) takes names no upstream lists.
 */
export const wantsModelSync = (channel: Pick<ChannelRecord, 'models'>): boolean =>
  channel.models.some((pattern) => isGlob(pattern) && !pattern.includes('-gizmo-'));

/**
 * Fetches channels' upstream model lists and stores them (SPEC §4). The last failure per
 * channel is kept here, in memory, like the circuit state: the channel view shows it until a
 * sync succeeds. Syncs under way are aborted on shutdown, before storage closes.
 */
export class ChannelModelSync {
  private readonly errors = new Map<number, ChannelModelSyncError>();
  private readonly running = new Set<{ done: Promise<unknown>; signal: CallerGone }>();

  constructor(private readonly deps: ModelSyncDeps) {}

  /**
   * Fetches the channel's list, stores it and refreshes routing. Throws the failure (a
   * RelayError, keys redacted), which is also kept as the channel's last error. Undefined when
   * the channel was deleted meanwhile. A type without a model list is a 400, not a failed sync.
   */
  async sync(channel: ChannelRecord): Promise<ChannelRecord | undefined> {
    if (!hasModelList(channel.type)) throw noModelList(channel.type);
    const signal = new CallerGone();
    const done = this.fetchAndStore(channel, signal);
    const entry = { done, signal };
    this.running.add(entry);
    try {
      return await done;
    } finally {
      this.running.delete(entry);
    }
  }

  /**
   * A new channel's first sync, best effort: waits up to `waitMs` (then it goes on in the
   * background), never throws — a failure is logged and shown on the channel.
   */
  async syncAfterCreate(channel: ChannelRecord, waitMs = CREATE_SYNC_WAIT_MS): Promise<void> {
    if (!wantsModelSync(channel) || !hasModelList(channel.type)) return;
    const done = this.sync(channel).catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
      timer.unref();
    });
    await Promise.race([done, waited]);
    clearTimeout(timer);
  }

  lastError(channelId: number): ChannelModelSyncError | null {
    return this.errors.get(channelId) ?? null;
  }

  /** The channel was deleted. */
  forget(channelId: number): void {
    this.errors.delete(channelId);
  }

  /** Aborts the syncs under way and waits for them to end: nothing is written after this. */
  async close(): Promise<void> {
    const running = [...this.running];
    for (const { signal } of running) signal.abort();
    await Promise.allSettled(running.map(({ done }) => done));
  }

  private async fetchAndStore(channel: ChannelRecord, signal: CallerGone): Promise<ChannelRecord | undefined> {
    try {
      const models = await fetchUpstreamModels(this.deps.upstream, channel, signal);
      const stored = await this.deps.channels.setSyncedModels(channel.id, models, new Date().toISOString());
      this.errors.delete(channel.id);
      if (!stored) return undefined;
      this.deps.registry.invalidate();
      this.deps.logger.info({ channelId: channel.id, models: models.length }, 'channel model list synced');
      return stored;
    } catch (error) {
      const failure =
        error instanceof RelayError
          ? { message: error.message, code: error.code }
          : { message: 'The relay could not store the model list.', code: 'internal_error' };
      this.errors.set(channel.id, { ...failure, at: new Date().toISOString() });
      // The message is already redacted; a non-RelayError is the relay's own (storage), never an upstream's text.
      this.deps.logger.warn(
        { channelId: channel.id, code: failure.code, reason: error instanceof Error ? error.message : String(error) },
        'channel model list sync failed',
      );
      throw error;
    }
  }
}
