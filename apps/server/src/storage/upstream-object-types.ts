import type { HostedToolKind } from '@chat-relay/contract';

/** What a channel lets through beyond plain tokens (ChannelPassthroughSchema), as the relay keeps it (issue 26). */
export interface ChannelPassthroughRecord {
  hostedTools: HostedToolKind[];
  serviceTiers: string[];
  audioOutput: boolean;
  upstreamObjects: boolean;
}

/** Nothing beyond plain tokens: every channel's default. */
export const NOTHING_PASSES: ChannelPassthroughRecord = { hostedTools: [], serviceTiers: [], audioOutput: false, upstreamObjects: false };

/**
 * Objects a passthrough answer created at a channel's provider, by the account whose request
 * created them (issue 26): the provider shares them with every tenant of the channel's key, so a
 * later request may name only its own account's.
 */
export type UpstreamObjectKind = 'item' | 'container';

export interface UpstreamObjectRecord {
  kind: UpstreamObjectKind;
  /** The provider's id (`msg_…`, `cntr_…`). */
  id: string;
  accountId: number;
  /** The channel whose answer created it. */
  channelId: number | null;
  createdAt: string;
  expiresAt: string;
}

export interface UpstreamObjectStore {
  /** Records the objects; an id already recorded keeps its first owner. */
  remember(objects: readonly UpstreamObjectRecord[]): Promise<void>;
  /** Of `ids` of `kind`, those `accountId` created that have not expired at `now` (ISO). */
  owned(accountId: number, kind: UpstreamObjectKind, ids: readonly string[], now: string): Promise<string[]>;
  /** Deletes rows expired at `now`; returns how many. */
  purgeExpired(now: string): Promise<number>;
}
