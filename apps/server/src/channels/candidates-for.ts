import { ENDPOINT_ROUTES, type Endpoint } from '@chat-relay/contract';
import { modelNotFound, modelNotServedOn } from '@chat-relay/wire';
import type { ChannelRegistry, LiveChannel } from './channel-registry';

/**
 * Enabled channels serving `model` on `endpoint`, or the 404 that says why there are none: the
 * model is unknown, or it is served only for other endpoints (naming them). At once, without a
 * promise, when the channels are loaded and some serve it — every request but the first few.
 */
export function candidatesFor(registry: ChannelRegistry, model: string, endpoint: Endpoint): readonly LiveChannel[] | Promise<readonly LiveChannel[]> {
  const known = registry.knownCandidates(model, endpoint);
  return known && known.length > 0 ? known : candidatesOrWhyNone(registry, model, endpoint);
}

async function candidatesOrWhyNone(registry: ChannelRegistry, model: string, endpoint: Endpoint): Promise<readonly LiveChannel[]> {
  const candidates = await registry.candidatesFor(model, endpoint);
  if (candidates.length > 0) return candidates;
  const elsewhere = await registry.endpointsServing(model);
  if (elsewhere.length === 0) throw modelNotFound(model);
  const name = (served: Endpoint) => (served === 'chat' ? 'chat' : `${served} (${ENDPOINT_ROUTES[served]})`);
  throw modelNotServedOn(model, name(endpoint), elsewhere.map(name));
}
