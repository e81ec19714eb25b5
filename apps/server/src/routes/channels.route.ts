import type { ChannelCreate, ChannelUpdate } from '@chat-relay/contract';
import { channelsContract } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import { notFound } from '../errors/relay-error';
import { DEFAULT_CHANNEL_TIMEOUTS } from '../relay/channel-defaults';
import type { ChannelHealth } from '../relay/channel-health';
import type { ChannelRegistry } from '../relay/channel-registry';
import type { ChannelPatch, ChannelStore, ChannelTimeoutsMs } from '../storage/types';
import { assertPageInRange } from './paging';
import { channelView } from './views';

export interface ChannelRouteDeps {
  channels: ChannelStore;
  registry: ChannelRegistry;
  health: ChannelHealth;
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

function patchFrom(update: ChannelUpdate, currentTimeouts: ChannelTimeoutsMs): ChannelPatch {
  const patch: ChannelPatch = {};
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
  return patch;
}

/** Channel administration (admin key). Every write refreshes the routing cache. */
export function channelsRouter(deps: ChannelRouteDeps) {
  const s = initServer();
  const changed = (id: number) => {
    deps.registry.invalidate();
    deps.health.forget(id);
  };
  return s.router(channelsContract, {
    listChannels: async ({ query }) => {
      const { rows, total } = await deps.channels.list({ page: query.page, perPage: query.per_page });
      assertPageInRange(query.page, query.per_page, total);
      return { status: 200, body: { data: rows.map(channelView), total, page: query.page, per_page: query.per_page } };
    },
    createChannel: async ({ body }) => {
      const channel = await deps.channels.create({
        name: body.name,
        type: body.type,
        baseUrl: body.base_url,
        keys: body.keys,
        models: body.models,
        modelMapping: body.model_mapping ?? {},
        priority: body.priority ?? 0,
        weight: body.weight ?? 1,
        enabled: body.enabled ?? true,
        timeouts: timeoutsFrom(body.timeouts),
      });
      changed(channel.id);
      return { status: 201, body: channelView(channel) };
    },
    getChannel: async ({ params }) => {
      const channel = await deps.channels.get(params.id);
      if (!channel) throw channelNotFound(params.id);
      return { status: 200, body: channelView(channel) };
    },
    updateChannel: async ({ params, body }) => {
      const current = await deps.channels.get(params.id);
      if (!current) throw channelNotFound(params.id);
      const channel = await deps.channels.update(params.id, patchFrom(body, current.timeouts));
      if (!channel) throw channelNotFound(params.id);
      changed(channel.id);
      return { status: 200, body: channelView(channel) };
    },
    deleteChannel: async ({ params }) => {
      if (!(await deps.channels.delete(params.id))) throw channelNotFound(params.id);
      changed(params.id);
      return { status: 204, body: undefined };
    },
  });
}
