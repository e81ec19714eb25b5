import type { UnpricedModelList } from '@chat-relay/contract';
import type { LiveChannel } from '../channels/channel-registry';
import type { PricingDeps } from './model-pricing';

/**
 * The models enabled channels list (plain names, mapping keys, synced names their globs take)
 * that nothing prices: no price-table entry for the public name or for the upstream model it is
 * sent as, and no list price in the catalogue for that upstream model. Each with the channels
 * serving it, by name.
 */
export async function unpricedModels(channels: readonly LiveChannel[], deps: PricingDeps): Promise<UnpricedModelList['data']> {
  const found = new Map<string, UnpricedModelList['data'][number]>();
  for (const channel of channels) {
    if (!channel.record.enabled) continue;
    for (const model of channel.listableModels()) {
      const upstream = channel.upstreamModel(model);
      const key = `${model}\u0000${upstream}`;
      const known = found.get(key);
      if (known) {
        known.channels.push({ id: channel.id, name: channel.record.name });
        continue;
      }
      if (await isPriced(deps, model, upstream)) continue;
      found.set(key, { model, upstream_model: upstream, channels: [{ id: channel.id, name: channel.record.name }] });
    }
  }
  return [...found.values()].sort((a, b) => a.model.localeCompare(b.model) || a.upstream_model.localeCompare(b.upstream_model));
}

async function isPriced(deps: PricingDeps, model: string, upstream: string): Promise<boolean> {
  if ((await deps.priceBook.priceOf(model))?.model === model) return true;
  if (await deps.priceBook.priceOf(upstream)) return true;
  return deps.catalogue.facts(upstream).cost !== undefined;
}
