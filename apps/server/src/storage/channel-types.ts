import type { ChannelResponsesApi, ChannelType, Endpoint } from '@chat-relay/contract';
import type { ChannelTimeoutsMs } from '../core/channel-defaults';
import type { Page, PageRequest } from './common-types';
import type { ChannelPassthroughRecord } from './upstream-object-types';

/** A channel key's state (SPEC §6): an upstream 401/403 disables it, with the reason. */
export interface ChannelKeyState {
  status: 'active' | 'disabled';
  /** Why it was disabled (the upstream's redacted answer); null when active. */
  reason: string | null;
  /** When the status last changed; null for a key never disabled. */
  changedAt: string | null;
}

export interface ChannelRecord {
  id: number;
  name: string;
  type: ChannelType;
  baseUrl: string;
  keys: string[];
  /** One per key, same order. */
  keyStates: ChannelKeyState[];
  models: string[];
  modelMapping: Record<string, string>;
  priority: number;
  weight: number;
  enabled: boolean;
  timeouts: ChannelTimeoutsMs;
  /** Whether Responses requests go to the channel's own `/responses` (see ChannelResponsesApiSchema). */
  responsesApi: ChannelResponsesApi;
  /** What it serves; `null`: its type's defaults (DEFAULT_CHANNEL_ENDPOINTS). */
  endpoints: Endpoint[] | null;
  /** The upstream's model list as last fetched (`POST /api/channels/{id}/models/sync`); `null`: never. */
  syncedModels: SyncedModel[] | null;
  modelsSyncedAt: string | null;
  /** What passes through to it beyond plain tokens (see ChannelPassthroughSchema); the stores always say, absent is nothing. */
  passthrough?: ChannelPassthroughRecord;
  /** A cloud channel's region and API version (issue 31); absent or empty for the others. */
  cloud?: ChannelCloudRecord;
  createdAt: string;
  updatedAt: string;
}

/** Where in its cloud a channel's requests go (see ChannelCloudSchema). */
export interface ChannelCloudRecord {
  region?: string;
  apiVersion?: string;
}

/** A model as an upstream lists it, and what it serves when the upstream says (Gemini does). */
export interface SyncedModel {
  id: string;
  /** `null`: the upstream does not say; the channel's endpoints apply. */
  endpoints: Endpoint[] | null;
}
/**
 * Without `keyStates` every key starts (or, in a patch giving `keys`, starts again) active.
 * Without `responsesApi` a new channel is `auto`; without `passthrough`, nothing passes.
 */
export type NewChannel = Omit<
  ChannelRecord,
  'id' | 'createdAt' | 'updatedAt' | 'keyStates' | 'responsesApi' | 'endpoints' | 'syncedModels' | 'modelsSyncedAt'
> & {
  keyStates?: ChannelKeyState[];
  responsesApi?: ChannelResponsesApi;
  endpoints?: Endpoint[] | null;
};
export type ChannelPatch = Partial<NewChannel>;
export interface ChannelStore {
  create(input: NewChannel): Promise<ChannelRecord>;
  get(id: number): Promise<ChannelRecord | undefined>;
  list(request: PageRequest): Promise<Page<ChannelRecord>>;
  listAll(): Promise<ChannelRecord[]>;
  update(id: number, patch: ChannelPatch): Promise<ChannelRecord | undefined>;
  delete(id: number): Promise<boolean>;
  count(): Promise<number>;
  /** Takes `key` out of rotation with a reason; undefined when the channel no longer holds it. */
  disableKey(id: number, key: string, reason: string): Promise<ChannelRecord | undefined>;
  /**
   * Only `responsesApi` (and `updatedAt`, as `update` does): what the relay writes when an `auto`
   * channel answers 404/405 on `/responses`. Undefined when the channel no longer exists.
   */
  setResponsesApi(id: number, value: ChannelResponsesApi): Promise<ChannelRecord | undefined>;
  /**
   * Only `syncedModels`, `modelsSyncedAt` (= `at`) and `updatedAt`: the upstream's model list as
   * fetched. `updatedAt` moves so that routing builds the channel afresh. Undefined when the
   * channel no longer exists.
   */
  setSyncedModels(id: number, models: readonly SyncedModel[], at: string): Promise<ChannelRecord | undefined>;
  /**
   * Start-up work (bootstrap): seals again, under the current RELAY_SECRET_KEY, every key stored in
   * the clear (by an earlier version) or under RELAY_SECRET_KEY_PREVIOUS; returns how many channels
   * changed. Fails naming the channel when a key was sealed under a secret this instance lacks.
   */
  resealKeys(): Promise<number>;
}

/** One channel's stored keys replaced by `next`, only while they are still `expected` (compare-and-set). */
export interface ChannelKeysRewrite {
  id: number;
  expected: readonly string[];
  next: readonly string[];
}
/**
 * The channels table as a backend keeps it (sealed-channel-keys.ts wraps it into the ChannelStore
 * the server uses): `keys` hold the stored values — sealed — written and compared as given.
 */
export interface StoredChannelStore extends Omit<ChannelStore, 'resealKeys'> {
  /**
   * Only `keys` (not `updatedAt`: they mean what they meant) of each channel whose keys are still
   * `expected`; returns how many changed. Where the backend can, no copy of the old values stays
   * in the database's files (SQLite: the file rebuilt by VACUUM when anything changed).
   */
  rewriteKeys(rewrites: readonly ChannelKeysRewrite[]): Promise<number>;
}
