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
 * RELAY_UNPRICED_MODELS=free an unpriced one is left out (it costs nothing). At once, without a
 * promise, when every price is known already (every request for a model after its first).
 */
export function priceCandidates(
  deps: PricingDeps,
  model: string,
  endpoint: Endpoint,
  channels: readonly MappedChannel[],
): CandidatePrice[] | Promise<CandidatePrice[]> {
  // No channel serves it (the request ends 404 model_not_found, never 403 for a price): priced
  // as its own name when it has one, so an exhausted quota is still said first.
  if (channels.length === 0) return deps.prices.priceFor(model, model, endpoint).then((applied) => (applied ? [{ upstreamModel: model, applied }] : []));
  const pricing: Pricing = { deps, model, endpoint, out: [], seen: new Set() };
  for (let at = 0; at < channels.length; at++) {
    const upstreamModel = (channels[at] as MappedChannel).upstreamModel(model);
    if (pricing.seen.has(upstreamModel)) continue;
    const known = deps.prices.knownPriceFor(model, upstreamModel, endpoint);
    if (known === NOT_KNOWN_YET) return priceFrom(pricing, channels, at);
    addPrice(pricing, upstreamModel, known);
  }
  return pricing.out;
}

interface Pricing {
  deps: PricingDeps;
  model: string;
  endpoint: Endpoint;
  out: CandidatePrice[];
  seen: Set<string>;
}

/** The candidates from `from` on, each price looked up where it is not known yet. */
async function priceFrom(pricing: Pricing, channels: readonly MappedChannel[], from: number): Promise<CandidatePrice[]> {
  const { deps, model, endpoint } = pricing;
  for (const channel of channels.slice(from)) {
    const upstreamModel = channel.upstreamModel(model);
    if (!pricing.seen.has(upstreamModel)) addPrice(pricing, upstreamModel, await deps.prices.priceFor(model, upstreamModel, endpoint));
  }
  return pricing.out;
}

function addPrice(pricing: Pricing, upstreamModel: string, applied: AppliedPrice | undefined): void {
  pricing.seen.add(upstreamModel);
  if (applied) pricing.out.push({ upstreamModel, applied });
  else if (pricing.deps.unpricedModels !== 'free') throw modelPriceNotSet(pricing.model, upstreamModel, pricing.endpoint);
}
