import type { ChannelCreate, ChannelUpdate } from '@chat-relay/contract';
import { channelsContract, defaultCloudBaseUrl, endpointsBeyondType } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import { invalidRequest, notFound } from '@chat-relay/wire';
import { DEFAULT_CHANNEL_TIMEOUTS } from '../core/channel-defaults';
import type { ChannelCheckLog } from '../channels/channel-checks-log';
import type { ChannelHealth } from '../channels/channel-health';
import type { ParameterRefusals } from '../channels/parameter-refusals';
import { alignedStates, reenabledKey } from '../storage/key-states';
import { LiveChannel, type ChannelRegistry } from '../channels/channel-registry';
import type { ChannelModelSync } from '../channels/model-sync';
import type { UpstreamClient } from '../channels/upstream/upstream-client';
import type { ChannelKeyState, ChannelPatch, ChannelRecord, ChannelStore, ChannelTimeoutsMs } from '../storage/types';
import { passthroughFrom } from './channel-passthrough';
import { assertCloudChannelFits, cloudRecordOf } from '../channels/cloud/cloud-channel';
import { assertPageInRange } from './paging';
import { runChannelTest } from '../channels/test-channel';
import { channelView } from './views';

export interface ChannelRouteDeps {
  channels: ChannelStore;
  registry: ChannelRegistry;
  health: ChannelHealth;
  /** What each channel's upstream refused by name (shown with its health, forgotten when it changes). */
  refusals?: ParameterRefusals;
  upstream: UpstreamClient;
  modelSync: ChannelModelSync;
  /** Each channel's last test on this instance (`last_check`): manual ones are recorded here too. */
  checks: ChannelCheckLog;
}

const channelNotFound = (id: number) => notFound('channel_not_found', `No channel with id ${id}.`, 'id');

function timeoutsFrom(
  given: ChannelCreate['timeouts'] | undefined,
  base: ChannelTimeoutsMs = DEFAULT_CHANNEL_TIMEOUTS,
): ChannelTimeoutsMs {
  return {
    connectMs: given?.connect_ms ?? base.connectMs,
    firstByteMs: given?.first_byte_ms ?? base.firstByteMs,
    idleMs: given?.idle_ms ?? base.idleMs,
  };
}

/** `enable_keys`: those positions active again; a position past the keys is the caller's mistake. */
function reenabled(current: ChannelRecord, positions: readonly number[]): ChannelKeyState[] {
  const outOfRange = positions.find((position) => position >= current.keys.length);
  if (outOfRange !== undefined) {
    throw invalidRequest(`The channel has no key at position ${outOfRange}.`, 'enable_keys', 'invalid_value');
  }
  const now = new Date().toISOString();
  return alignedStates(current.keys, current.keyStates).map((state, index) =>
    positions.includes(index) && state.status === 'disabled' ? reenabledKey(now) : state,
  );
}

/**
 * An update naming only one of `type` and `endpoints` is checked against the other as stored (the
 * contract checks a body naming both): the channel must stay within what its type can serve.
 */
function assertEndpointsFitType(update: ChannelUpdate, current: ChannelRecord): void {
  if ((update.type === undefined) === (update.endpoints === undefined)) return;
  const type = update.type ?? current.type;
  const problem = endpointsBeyondType(type, update.endpoints === undefined ? current.endpoints : update.endpoints);
  if (!problem) return;
  const fix = update.type === undefined ? '' : ' Send endpoints with the type (null: the type\'s defaults).';
  throw invalidRequest(`The endpoints do not fit the channel's type: ${problem}.${fix}`, 'endpoints', 'invalid_value');
}

function patchFrom(update: ChannelUpdate, current: ChannelRecord): ChannelPatch {
  const currentTimeouts = current.timeouts;
  const patch: ChannelPatch = {};
  // Keys sent again start active (see ChannelUpdateSchema); positions refer to the current keys.
  if (update.enable_keys !== undefined && update.keys === undefined) patch.keyStates = reenabled(current, update.enable_keys);
  if (update.name !== undefined) patch.name = update.name;
  if (update.type !== undefined) patch.type = update.type;
  if (update.base_url !== undefined) patch.baseUrl = update.base_url;
  if (update.keys !== undefined) patch.keys = update.keys;
  if (update.models !== undefined) patch.models = update.models;
  if (update.model_mapping !== undefined) patch.modelMapping = update.model_mapping;
  if (update.priority !== undefined) patch.priority = update.priority;
  if (update.weight !== undefined) patch.weight = update.weight;
  if (update.enabled !== undefined) patch.enabled = update.enabled;
  if (update.timeouts !== undefined) patch.timeouts = timeoutsFrom(update.timeouts, currentTimeouts);
  if (update.responses_api !== undefined) patch.responsesApi = update.responses_api;
  if (update.endpoints !== undefined) patch.endpoints = update.endpoints;
  if (update.passthrough !== undefined) patch.passthrough = passthroughFrom(update.passthrough, current.passthrough);
  if (update.cloud !== undefined) patch.cloud = cloudRecordOf(update.cloud);
  const type = patch.type ?? current.type;
  assertCloudChannelFits({ type, baseUrl: patch.baseUrl ?? current.baseUrl, keys: patch.keys ?? current.keys, cloud: 'cloud' in patch ? patch.cloud : current.cloud });
  return patch;
}

/** Channel administration (admin key). Every write refreshes the routing cache. */
export function channelsRouter(deps: ChannelRouteDeps) {
  const s = initServer();
  const changed = (id: number) => {
    deps.registry.invalidate();
    deps.health.forget(id);
    deps.refusals?.forget(id);
  };
  const view = (channel: ChannelRecord) =>
    channelView(channel, {
      health: deps.health.snapshot(channel.id),
      refusedParameters: deps.refusals?.list(channel.id),
      syncError: deps.modelSync.lastError(channel.id),
      lastCheck: deps.checks.last(channel.id),
    });
  return s.router(channelsContract, {
    listChannels: async ({ query }) => {
      const { rows, total } = await deps.channels.list({ page: query.page, perPage: query.per_page });
      assertPageInRange(query.page, query.per_page, total);
      return { status: 200, body: { data: rows.map(view), total, page: query.page, per_page: query.per_page } };
    },
    createChannel: async ({ body }) => {
      const cloud = cloudRecordOf(body.cloud);
      // The contract saw to it: left out only where the cloud's host is known.
      const baseUrl = body.base_url ?? defaultCloudBaseUrl(body.type, body.cloud) ?? '';
      assertCloudChannelFits({ type: body.type, baseUrl, keys: body.keys, cloud });
      const channel = await deps.channels.create({
        name: body.name,
        type: body.type,
        baseUrl,
        keys: body.keys,
        models: body.models,
        modelMapping: body.model_mapping ?? {},
        priority: body.priority ?? 0,
        weight: body.weight ?? 1,
        enabled: body.enabled ?? true,
        timeouts: timeoutsFrom(body.timeouts),
        responsesApi: body.responses_api ?? 'auto',
        endpoints: body.endpoints ?? null,
        passthrough: passthroughFrom(body.passthrough ?? {}),
        ...(cloud ? { cloud } : {}),
      });
      changed(channel.id);
      // Best effort, briefly awaited: the answer shows the synced list or why it failed when that is quick.
      await deps.modelSync.syncAfterCreate(channel);
      return { status: 201, body: view((await deps.channels.get(channel.id)) ?? channel) };
    },
    getChannel: async ({ params }) => {
      const channel = await deps.channels.get(params.id);
      if (!channel) throw channelNotFound(params.id);
      return { status: 200, body: view(channel) };
    },
    updateChannel: async ({ params, body }) => {
      const current = await deps.channels.get(params.id);
      if (!current) throw channelNotFound(params.id);
      assertEndpointsFitType(body, current);
      const channel = await deps.channels.update(params.id, patchFrom(body, current));
      if (!channel) throw channelNotFound(params.id);
      changed(channel.id);
      return { status: 200, body: view(channel) };
    },
    testChannel: async ({ params, body }) => {
      const channel = await deps.channels.get(params.id);
      if (!channel) throw channelNotFound(params.id);
      const { result } = await runChannelTest(deps.upstream, channel, { model: body.model, keyIndex: body.key_index });
      deps.checks.record(channel.id, result, 'manual');
      return { status: 200, body: result };
    },
    syncChannelModels: async ({ params }) => {
      const channel = await deps.channels.get(params.id);
      if (!channel) throw channelNotFound(params.id);
      const synced = await deps.modelSync.sync(channel);
      if (!synced?.syncedModels || !synced.modelsSyncedAt) throw channelNotFound(params.id);
      const body = {
        channel_id: synced.id,
        synced_at: synced.modelsSyncedAt,
        models: synced.syncedModels,
        listed: [...new LiveChannel(synced).listableModels()].sort(),
      };
      return { status: 200, body };
    },
    deleteChannel: async ({ params }) => {
      if (!(await deps.channels.delete(params.id))) throw channelNotFound(params.id);
      changed(params.id);
      deps.modelSync.forget(params.id);
      deps.checks.forget(params.id);
      return { status: 204, body: undefined };
    },
  });
}
