import { LocalChangeFeed, type ChangeFeed } from '../core/change-feed';
import { DEFAULT_CHANNEL_ENDPOINTS, parseGizmoModel, type Endpoint } from '@chat-relay/contract';
import { createHash } from 'node:crypto';
import type { ChannelRecord, ChannelStore } from '../storage/types';
import { endpointsNamedBy } from './model-endpoints';
import { isGlob, matchesModelPattern } from '../core/model-pattern';

/** What a channel serves: the admin's list, or its type's defaults. */
export const channelEndpoints = (channel: Pick<ChannelRecord, 'type' | 'endpoints'>): readonly Endpoint[] =>
  channel.endpoints ?? DEFAULT_CHANNEL_ENDPOINTS[channel.type];

/** A pattern that spells out the gizmo part (`*-gizmo-*`, `gpt-4o-gizmo-*`): relay chaining (SPEC §5). */
const namesGizmo = (pattern: string): boolean => pattern.includes('-gizmo-');

/** How a channel key is named in stored state: sha256 hex, never the key itself. */
export const channelKeyDigest = (key: string): string => createHash('sha256').update(key).digest('hex');

/** The same record in every field: `updatedAt` alone misses two writes within one millisecond. */
const unchanged = (loaded: ChannelRecord, stored: ChannelRecord): boolean =>
  loaded.updatedAt === stored.updatedAt && JSON.stringify(loaded) === JSON.stringify(stored);

/** A channel as routing sees it, with its key rotation cursor. */
export class LiveChannel {
  readonly id: number;
  readonly priority: number;
  readonly weight: number;
  private keyCursor = 0;
  /** Keys in rotation: those not disabled (in the store, or by this process since it loaded). */
  private activeKeys: string[];
  /** What the channel serves (see channelEndpoints). */
  readonly endpoints: ReadonlySet<Endpoint>;
  /** Synced models whose upstream said what they serve (Gemini's methods): see servesOn. */
  private readonly syncedEndpoints: ReadonlyMap<string, readonly Endpoint[]>;
  private listable: string[] | undefined;
  private keyDigests: Map<string, string> | undefined;

  constructor(readonly record: ChannelRecord) {
    this.endpoints = new Set(channelEndpoints(record));
    this.syncedEndpoints = new Map(
      (record.syncedModels ?? []).flatMap((model) => (model.endpoints ? [[model.id, model.endpoints] as const] : [])),
    );
    this.id = record.id;
    this.priority = record.priority;
    this.weight = record.weight;
    this.activeKeys = record.keys.filter((_, index) => record.keyStates[index]?.status !== 'disabled');
  }

  /** With every key disabled a channel is out of rotation. */
  get hasActiveKey(): boolean {
    return this.activeKeys.length > 0;
  }

  /** Out of rotation at once, before the store has it (concurrent requests skip it too). */
  dropKey(key: string): void {
    this.activeKeys = this.activeKeys.filter((active) => active !== key);
  }

  /**
   * Whether the channel takes `model`. A gizmo name (`isGizmo`) is taken only by a pattern that
   * names the gizmo part itself: a catch-all `*` must not swallow an unknown assistant.
   */
  serves(model: string, isGizmo = false): boolean {
    if (Object.prototype.hasOwnProperty.call(this.record.modelMapping, model)) return true;
    return this.record.models.some((pattern) => (!isGizmo || namesGizmo(pattern)) && matchesModelPattern(pattern, model));
  }

  /**
   * Whether the channel takes `model` on `endpoint`: it serves the endpoint and the model (by
   * name, glob or mapping), and the model is for that endpoint — as the upstream's synced list
   * says, else as its name says (`text-embedding-3-small` is not a chat model, `dall-e-3` not an
   * embedding one). An admin who set the channel's `endpoints` and named the model (or mapped
   * it) has said what it serves: that is not second-guessed.
   */
  servesOn(model: string, endpoint: Endpoint, isGizmo = false): boolean {
    if (!this.endpoints.has(endpoint) || !this.serves(model, isGizmo)) return false;
    const named = Object.prototype.hasOwnProperty.call(this.record.modelMapping, model) || this.record.models.includes(model);
    if (named && this.record.endpoints !== null) return true;
    const synced = this.syncedEndpoints.get(model);
    if (synced) return synced.includes(endpoint);
    const byName = endpointsNamedBy(model);
    return byName === null || byName.includes(endpoint);
  }

  /** The model name sent upstream: the mapping's target, or the name as asked. */
  upstreamModel(model: string): string {
    return Object.prototype.hasOwnProperty.call(this.record.modelMapping, model)
      ? (this.record.modelMapping[model] ?? model)
      : model;
  }

  /** Active keys are used in rotation. */
  nextKey(): string {
    const keys = this.activeKeys;
    const key = keys[this.keyCursor % keys.length];
    this.keyCursor = (this.keyCursor + 1) % keys.length;
    if (key === undefined) throw new Error(`channel ${this.id} has no active key`);
    return key;
  }

  /** The active key whose sha256 (hex) is `digest`: the key that created state upstream, or served a session. */
  keyWithDigest(digest: string): string | undefined {
    return this.activeKeys.find((key) => this.digestOf(key) === digest);
  }

  /** channelKeyDigest(key), worked out once per key of the channel as loaded. */
  digestOf(key: string): string {
    const digests = (this.keyDigests ??= new Map());
    let digest = digests.get(key);
    if (digest === undefined) {
      digest = channelKeyDigest(key);
      digests.set(key, digest);
    }
    return digest;
  }

  /**
   * Names a caller can list: plain model names and mapping keys, not globs — and the synced
   * upstream names a glob takes (not a gizmo pattern) on some endpoint of the channel.
   */
  listableModels(): string[] {
    if (!this.listable) {
      const globs = this.record.models.filter((pattern) => isGlob(pattern) && !namesGizmo(pattern));
      const synced = (globs.length > 0 ? (this.record.syncedModels ?? []) : []).filter(
        ({ id }) =>
          parseGizmoModel(id) === undefined &&
          globs.some((pattern) => matchesModelPattern(pattern, id)) &&
          [...this.endpoints].some((endpoint) => this.servesOn(id, endpoint)),
      );
      const named = [...this.record.models.filter((model) => !isGlob(model)), ...Object.keys(this.record.modelMapping)];
      this.listable = [...new Set([...named, ...synced.map(({ id }) => id)])];
    }
    return this.listable;
  }
}

/** Distinct model and endpoint pairs whose candidates are remembered; past it the memo starts over. */
const CANDIDATE_MEMO_SIZE = 1000;

/**
 * Channels held in memory for routing, so the hot path reads no database. Every channel write
 * calls `invalidate()`, which publishes `channels` on the change feed: this instance and every
 * other one sharing the database drop their copy, and the next request reloads.
 */
export class ChannelRegistry {
  private channels: LiveChannel[] | undefined;
  /** Kept across reloads so unchanged channels keep their key rotation. */
  private lastLoaded: LiveChannel[] = [];
  private loading: Promise<LiveChannel[]> | undefined;
  private generation = 0;
  /** candidatesFor's answers for the list `of`: a list loaded afresh starts a new memo. */
  private candidates: { of: readonly LiveChannel[] | undefined; byModel: Map<string, readonly LiveChannel[]> } = { of: undefined, byModel: new Map() };

  constructor(
    private readonly store: ChannelStore,
    private readonly changes: ChangeFeed = new LocalChangeFeed(),
  ) {
    changes.subscribe('channels', () => this.forgetLoaded());
  }

  /** A channel was written: every instance reloads before its next routing decision. */
  invalidate(): void {
    this.changes.publish('channels');
  }

  private forgetLoaded(): void {
    this.generation += 1;
    this.channels = undefined;
    this.loading = undefined;
  }

  async all(): Promise<LiveChannel[]> {
    if (this.channels) return this.channels;
    if (!this.loading) {
      const generation = this.generation;
      const previous = new Map(this.lastLoaded.map((channel) => [channel.id, channel]));
      this.loading = this.store.listAll().then((records) => {
        const live = records.map((record) => {
          const old = previous.get(record.id);
          return old && unchanged(old.record, record) ? old : new LiveChannel(record);
        });
        if (generation === this.generation) {
          this.channels = live;
          this.lastLoaded = live;
        }
        return live;
      });
    }
    return this.loading;
  }

  /**
   * Enabled channels that serve `model` (by name, glob or mapping). One whose keys are all
   * disabled stays a candidate that routing skips: the model exists, no channel is available (503).
   */
  async candidatesFor(model: string, endpoint: Endpoint = 'chat'): Promise<readonly LiveChannel[]> {
    return this.knownCandidates(model, endpoint) ?? this.candidatesAmong(await this.all(), model, endpoint);
  }

  /** {@link candidatesFor} at once, without a promise, once the channels are loaded; undefined before. */
  knownCandidates(model: string, endpoint: Endpoint = 'chat'): readonly LiveChannel[] | undefined {
    return this.channels && this.candidatesAmong(this.channels, model, endpoint);
  }

  private candidatesAmong(channels: readonly LiveChannel[], model: string, endpoint: Endpoint): readonly LiveChannel[] {
    // Asked three times a request (admission, pricing, routing): worked out once per model and endpoint of this list.
    if (this.candidates.of !== channels) this.candidates = { of: channels, byModel: new Map() };
    const key = `${endpoint} ${model}`;
    let found = this.candidates.byModel.get(key);
    if (found === undefined) {
      const isGizmo = parseGizmoModel(model) !== undefined;
      found = Object.freeze(channels.filter((channel) => channel.record.enabled && channel.servesOn(model, endpoint, isGizmo)));
      // Model names are the callers' to choose: the memo forgets everything rather than grow without bound.
      if (this.candidates.byModel.size >= CANDIDATE_MEMO_SIZE) this.candidates.byModel.clear();
      this.candidates.byModel.set(key, found);
    }
    return found;
  }

  /** The endpoints some enabled channel serves `model` on (for a 404 that says where it is served). */
  async endpointsServing(model: string): Promise<Endpoint[]> {
    const isGizmo = parseGizmoModel(model) !== undefined;
    const served = new Set<Endpoint>();
    for (const channel of await this.all()) {
      if (!channel.record.enabled) continue;
      for (const endpoint of channel.endpoints) if (channel.servesOn(model, endpoint, isGizmo)) served.add(endpoint);
    }
    return [...served];
  }

  /**
   * Whether the channel's own Responses API is used: the relay sets `bridged` when an `auto`
   * channel answers that it has none (404/405), so later requests go straight to the bridge.
   */
  async setResponsesApi(channel: LiveChannel, value: ChannelRecord['responsesApi']): Promise<void> {
    // Re-read first: an admin's explicit `native` set meanwhile is not overridden by a detection.
    const current = await this.store.get(channel.id);
    if (!current || current.responsesApi !== 'auto') return;
    await this.store.setResponsesApi(channel.id, value);
    this.invalidate();
  }

  /** The upstream refused `key` (SPEC §6): out of rotation now, and recorded with the reason. */
  async disableKey(channel: LiveChannel, key: string, reason: string): Promise<void> {
    channel.dropKey(key);
    await this.store.disableKey(channel.id, key, reason);
    this.invalidate();
  }
}
