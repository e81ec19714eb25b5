import type { Endpoint } from '@chat-relay/contract';
import { RelayError } from '@chat-relay/wire';
import { NOT_KNOWN_YET, type AppliedPrice, type PriceBook } from '../billing/price-book';

/** RELAY_UNPRICED_MODELS: what the relay does with a model nobody priced. */
export type UnpricedModels = 'refuse' | 'free';

export interface PricingDeps {
  prices: PriceBook;
  /** `refuse` (the default): refused before any upstream call; `free`: served for nothing (self-hosted installs). */
  unpricedModels?: UnpricedModels;
}

/** A channel as pricing sees it: the name it sends upstream for the public one. */
export interface MappedChannel {
  upstreamModel(model: string): string;
}

/** One upstream model a request may be served as, and its price. */
export interface CandidatePrice {
  upstreamModel: string;
  applied: AppliedPrice;
}

/**
 * 403 model_price_not_set (SPEC §8): the model has no price, so it is not served — in the OpenAI
 * shape `invalid_request_error`; each dialect's one error writer turns the 403 into its own
 * (Anthropic `permission_error`, Gemini `PERMISSION_DENIED`).
 */
export function modelPriceNotSet(publicModel: string, upstreamModel: string, endpoint: Endpoint): RelayError {
  const served = upstreamModel === publicModel ? `'${publicModel}'` : `'${publicModel}' (served as '${upstreamModel}')`;
  const units = endpoint === 'chat' || endpoint === 'completions' || endpoint === 'embeddings' || endpoint === 'moderations' ? 'input and output (micro-USD per million tokens)' : "the endpoint's unit price";
  return new RelayError({
    status: 403,
    type: 'invalid_request_error',
    code: 'model_price_not_set',
    param: 'model',
    message:
      `The model ${served} has no price on this relay, so it is not served. An admin can price it with PUT /api/prices ` +
      `(an entry for '${upstreamModel}' with ${units}, or "free": true to serve it for nothing on purpose), ` +
      `or set RELAY_UNPRICED_MODELS=free for a self-hosted install.`,
  });
}

/**
 * The price of each upstream model the request may be served as — one per distinct mapped name
 * of the candidate channels — by the model that would serve it (PriceBook.priceFor). Any of them
 * unpriced refuses the whole request (403 model_price_not_set) before any upstream call, whichever
 * channel routing would have picked: what a request costs must not depend on the draw. With
 * RELAY_UNPRICED_MODELS=free an unpriced one is left out (it costs nothing).
 */
export async function priceCandidates(
  deps: PricingDeps,
  model: string,
  endpoint: Endpoint,
  channels: readonly MappedChannel[],
): Promise<CandidatePrice[]> {
  const out: CandidatePrice[] = [];
  if (channels.length === 0) {
    // No channel serves it (the request ends 404 model_not_found, never 403 for a price): priced
    // as its own name when it has one, so an exhausted quota is still said first.
    const applied = await deps.prices.priceFor(model, model, endpoint);
    return applied ? [{ upstreamModel: model, applied }] : [];
  }
  const seen = new Set<string>();
  for (const channel of channels) {
    const upstreamModel = channel.upstreamModel(model);
    if (seen.has(upstreamModel)) continue;
    seen.add(upstreamModel);
    const known = deps.prices.knownPriceFor(model, upstreamModel, endpoint);
    const applied = known === NOT_KNOWN_YET ? await deps.prices.priceFor(model, upstreamModel, endpoint) : known;
    if (applied) out.push({ upstreamModel, applied });
    else if (deps.unpricedModels !== 'free') throw modelPriceNotSet(model, upstreamModel, endpoint);
  }
  return out;
}
