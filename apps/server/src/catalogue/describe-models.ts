import { parseGizmoModel, type Model } from '@chat-relay/contract';
import type { LiveChannel } from '../channels/channel-registry';
import { pricingOf, type PricingDeps } from './model-pricing';

/** The name an enabled channel sends upstream for `model` (the first by priority that serves it), else the name itself. */
export function upstreamNameOf(channels: readonly LiveChannel[], model: string): string {
  const serving = channels
    .filter((channel) => channel.record.enabled && channel.serves(model))
    .sort((a, b) => b.priority - a.priority);
  return serving[0]?.upstreamModel(model) ?? model;
}

/**
 * `GET /v1/models` as the catalogue knows it (issue 28): each model's context window, output
 * limit and price per million tokens — of the upstream model its channel maps it to — added
 * only when known. An assistant's name (`gpt-4o-gizmo-…`) is left as it is.
 */
export async function withCatalogueFacts(models: readonly Model[], channels: readonly LiveChannel[], deps: PricingDeps): Promise<Model[]> {
  return Promise.all(
    models.map(async (model) => {
      if (parseGizmoModel(model.id)) return model;
      const upstream = upstreamNameOf(channels, model.id);
      const facts = deps.catalogue.facts(upstream);
      const pricing = await pricingOf(deps, model.id, upstream);
      return {
        ...model,
        ...(facts.contextWindow !== undefined && { context_window: facts.contextWindow }),
        ...(facts.maxOutputTokens !== undefined && { max_output_tokens: facts.maxOutputTokens }),
        ...(pricing && { pricing }),
      };
    }),
  );
}
