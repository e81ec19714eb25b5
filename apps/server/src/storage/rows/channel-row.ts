import type { ChannelKeyState, ChannelRecord, NewChannel, SyncedModel } from '../types';
import { alignedStates } from '../key-states';
import { flagOf, jsonColumn, requiredJson, type JsonColumn, type RowCodec } from './codec';
import { passthroughColumn, passthroughFromColumn } from './channel-passthrough';

/** A `channels` row as both backends read it. */
export interface ChannelRow {
  id: number;
  name: string;
  type: ChannelRecord['type'];
  base_url: string;
  keys: JsonColumn<string[]>;
  key_states: JsonColumn<ChannelKeyState[]>;
  models: JsonColumn<string[]>;
  model_mapping: JsonColumn<Record<string, string>>;
  priority: number;
  weight: number;
  enabled: number | boolean;
  timeouts: JsonColumn<ChannelRecord['timeouts']>;
  responses_api: ChannelRecord['responsesApi'];
  endpoints: JsonColumn<NonNullable<ChannelRecord['endpoints']>> | null;
  synced_models: JsonColumn<SyncedModel[]> | null;
  models_synced_at: string | null;
  /** Read leniently either way (see passthroughFromColumn). */
  passthrough: unknown;
  /** `{"region", "api_version"}` as text; NULL for a channel that is no cloud's. */
  cloud: JsonColumn<{ region?: string; api_version?: string }> | null;
  created_at: string;
  updated_at: string;
}

export const CHANNEL_COLUMNS = `id, name, type, base_url, keys, key_states, models, model_mapping, priority, weight, enabled, timeouts,
  responses_api, endpoints, synced_models, models_synced_at, passthrough, cloud, created_at, updated_at`;

export function channelRecordOf(row: ChannelRow, codec: RowCodec): ChannelRecord {
  const keys = requiredJson(codec, row.keys);
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    baseUrl: row.base_url,
    keys,
    keyStates: alignedStates(keys, requiredJson(codec, row.key_states)),
    models: requiredJson(codec, row.models),
    modelMapping: requiredJson(codec, row.model_mapping),
    priority: row.priority,
    weight: row.weight,
    enabled: flagOf(row.enabled),
    timeouts: requiredJson(codec, row.timeouts),
    responsesApi: row.responses_api,
    endpoints: codec.json(row.endpoints),
    syncedModels: codec.json(row.synced_models),
    modelsSyncedAt: row.models_synced_at,
    passthrough: passthroughFromColumn(row.passthrough),
    ...cloudOf(codec.json(row.cloud)),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The columns `create` and `update` write, in channelColumns' order. */
export const CHANNEL_WRITTEN =
  'name, type, base_url, keys, key_states, models, model_mapping, priority, weight, enabled, timeouts, responses_api, endpoints, passthrough, cloud';

/**
 * The columns `create` and `update` write and their values, in this order (PostgreSQL binds
 * them by position, SQLite by name). JSON columns as text; key states aligned with the keys.
 */
export const channelColumns = (channel: NewChannel, codec: RowCodec) => ({
  name: channel.name,
  type: channel.type,
  base_url: channel.baseUrl,
  keys: JSON.stringify(channel.keys),
  key_states: JSON.stringify(alignedStates(channel.keys, channel.keyStates)),
  models: JSON.stringify(channel.models),
  model_mapping: JSON.stringify(channel.modelMapping),
  priority: channel.priority,
  weight: channel.weight,
  enabled: codec.flag(channel.enabled),
  timeouts: JSON.stringify(channel.timeouts),
  responses_api: channel.responsesApi ?? 'auto',
  endpoints: jsonColumn(channel.endpoints),
  passthrough: passthroughColumn(channel.passthrough),
  cloud: cloudColumn(channel.cloud),
});

/** The record's `cloud`, absent when the column holds nothing. */
function cloudOf(column: { region?: string; api_version?: string } | null): Pick<ChannelRecord, 'cloud'> {
  if (!column || (column.region === undefined && column.api_version === undefined)) return {};
  return { cloud: { ...(column.region !== undefined ? { region: column.region } : {}), ...(column.api_version !== undefined ? { apiVersion: column.api_version } : {}) } };
}

/** NULL for a channel with no cloud settings, else their JSON (snake_case, as the API writes them). */
function cloudColumn(cloud: ChannelRecord['cloud']): string | null {
  if (!cloud || (cloud.region === undefined && cloud.apiVersion === undefined)) return null;
  return JSON.stringify({ ...(cloud.region !== undefined ? { region: cloud.region } : {}), ...(cloud.apiVersion !== undefined ? { api_version: cloud.apiVersion } : {}) });
}
