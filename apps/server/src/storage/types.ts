import type { AccountStore } from './account-types';
import type { AssistantStore } from './assistant-types';
import type { CatalogueStore } from './catalogue-types';
import type { ChannelStore } from './channel-types';
import type { ResponseStore } from './response-types';
import type { TaskStore } from './task-types';
import type { TokenStore } from './token-types';
import type { PriceStore, QuotaStore, UsageLogStore } from './usage-types';
import type { UpstreamObjectStore } from './upstream-object-types';
import type { WebhookStore } from './webhook-types';

/**
 * The storage the server depends on, and every store's types (one file per store, all exported
 * from here, so importers name this file only).
 */
export type { ChannelTimeoutsMs } from '../core/channel-defaults';
export * from './common-types';
export * from './account-types';
export * from './token-types';
export * from './channel-types';
export * from './assistant-types';
export * from './usage-types';
export * from './limit-types';
export * from './response-types';
export * from './task-types';
export * from './upstream-object-types';
export * from './catalogue-types';
export * from './webhook-types';

/** Options every backend is opened with. */
export interface StorageOptions {
  /**
   * This process's id among the instances sharing the database (random per start): recorded
   * with its quota reservations and its heartbeats, so that another instance can give back what
   * a dead one held without touching what a live one holds.
   */
  instanceId: string;
}

export interface Storage {
  /** `postgres`: several instances may share it (leftover reservations are judged by heartbeats). */
  kind: 'sqlite' | 'postgres';
  accounts: AccountStore;
  tokens: TokenStore;
  channels: ChannelStore;
  assistants: AssistantStore;
  quota: QuotaStore;
  prices: PriceStore;
  usageLog: UsageLogStore;
  responses: ResponseStore;
  tasks: TaskStore;
  upstreamObjects: UpstreamObjectStore;
  catalogue: CatalogueStore;
  /** Webhooks, their deliveries and the alert marks (issue 32); signing secrets sealed at rest. */
  webhooks: WebhookStore;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /**
   * Runs `work` while no other instance sharing the database runs work under the same `name`
   * (PostgreSQL: an advisory lock; SQLite has one process): start-up steps that read, then write.
   */
  exclusive<T>(name: string, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
