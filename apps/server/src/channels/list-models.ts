import { ENDPOINTS, gizmoModelName, parseGizmoModel, type Endpoint, type Model } from '@chat-relay/contract';
import type { AssistantRecord } from '../storage/types';
import type { LiveChannel } from './channel-registry';
import { isGlob, matchesModelPattern } from '../core/model-pattern';

/** Above this many entries, an assistant open to every family is listed under one only. */
export const MODEL_LIST_EXPANSION_LIMIT = 100;

const toUnix = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

/**
 * What `model` is served for through the relay: the union over the enabled channels that take
 * it (see LiveChannel.servesOn), in ENDPOINTS order.
 */
export function servedEndpoints(enabled: readonly LiveChannel[], model: string): Endpoint[] {
  const isGizmo = parseGizmoModel(model) !== undefined;
  const served = new Set<Endpoint>();
  for (const channel of enabled) {
    for (const endpoint of channel.endpoints) if (!served.has(endpoint) && channel.servesOn(model, endpoint, isGizmo)) served.add(endpoint);
  }
  return ENDPOINTS.filter((endpoint) => served.has(endpoint));
}

/**
 * `GET /v1/models` (SPEC §5): every model name the enabled channels list (synced upstream names
 * their globs take included), each with the endpoints it is served for, plus
 * `<family>-gizmo-<id>` for each assistant the caller may use and each allowed family some
 * channel serves — for chat, where assistants apply.
 */
export function listModels(channels: readonly LiveChannel[], assistants: readonly AssistantRecord[]): Model[] {
  const enabled = channels.filter((channel) => channel.record.enabled);
  const plain = new Map<string, Model>();
  for (const channel of enabled) {
    for (const id of channel.listableModels()) {
      if (!plain.has(id)) {
        const endpoints = servedEndpoints(enabled, id);
        plain.set(id, { id, object: 'model', created: toUnix(channel.record.createdAt), owned_by: channel.record.type, endpoints });
      }
    }
  }
  // Assistants are for chat: a family served only for embeddings (say) has none.
  const families = [...plain.values()]
    .filter((model) => !parseGizmoModel(model.id) && model.endpoints?.includes('chat'))
    .map((model) => model.id)
    .sort();
  const served = (family: string) => enabled.some((channel) => channel.servesOn(family, 'chat'));

  const restricted: Array<[AssistantRecord, string[]]> = [];
  const open: AssistantRecord[] = [];
  for (const assistant of assistants) {
    if (assistant.models === null) open.push(assistant);
    else restricted.push([assistant, allowedServedFamilies(assistant.models, families, served)]);
  }
  const restrictedCount = restricted.reduce((sum, [, allowed]) => sum + allowed.length, 0);
  const expandOpen = plain.size + restrictedCount + open.length * families.length < MODEL_LIST_EXPANSION_LIMIT;

  const gizmos: Model[] = [];
  const add = (assistant: AssistantRecord, family: string) =>
    gizmos.push({
      id: gizmoModelName(family, assistant.id),
      object: 'model',
      created: toUnix(assistant.createdAt),
      owned_by: 'chat-relay',
      endpoints: ['chat'],
    });
  for (const [assistant, allowed] of restricted) for (const family of allowed) add(assistant, family);
  for (const assistant of open) for (const family of expandOpen ? families : families.slice(0, 1)) add(assistant, family);

  const byId = (a: Model, b: Model) => a.id.localeCompare(b.id);
  return [...[...plain.values()].sort(byId), ...gizmos.sort(byId)];
}

function allowedServedFamilies(
  patterns: readonly string[],
  listedFamilies: readonly string[],
  served: (family: string) => boolean,
): string[] {
  const allowed = new Set<string>();
  for (const pattern of patterns) {
    if (isGlob(pattern)) {
      for (const family of listedFamilies) if (matchesModelPattern(pattern, family)) allowed.add(family);
    } else if (served(pattern)) {
      allowed.add(pattern);
    }
  }
  return [...allowed].sort();
}
