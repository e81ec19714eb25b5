import type { ModelPricing } from '@chat-relay/contract';
import type { PriceBook } from '../billing/price-book';
import type { PriceRecord } from '../storage/types';
import type { ModelCatalogueService } from './model-catalogue-service';

export interface PricingDeps {
  priceBook: PriceBook;
  catalogue: ModelCatalogueService;
}

const PER_MILLION = 1_000_000;
const usd = (microUsd: number | null | undefined): number | undefined => (microUsd === null || microUsd === undefined ? undefined : microUsd / PER_MILLION);

/** A price-table entry as token prices, or undefined when it sets none (a per-image or per-second price). */
function tablePricing(price: PriceRecord | undefined): ModelPricing | undefined {
  if (!price) return undefined;
  if ('free' in price && price.free === true) return { input: 0, output: 0 };
  const input = usd(price.input);
  const output = usd(price.output);
  if (input === undefined || output === undefined) return undefined;
  const cacheRead = usd(price.cacheRead);
  const cacheWrite = usd(price.cacheWrite);
  return { input, output, ...(cacheRead !== undefined && { cache_read: cacheRead }), ...(cacheWrite !== undefined && { cache_write: cacheWrite }) };
}

/**
 * What `model` (served upstream as `upstreamModel`) costs a caller per million tokens, in the order
 * the relay prices a request (issue 28): the operator's own entry for the public name when it
 * is an alias, then the price table for the upstream model (exact, then glob), then the
 * catalogue's list price of the upstream model. Undefined when none prices it.
 */
export async function pricingOf(deps: PricingDeps, model: string, upstreamModel: string): Promise<ModelPricing | undefined> {
  if (upstreamModel !== model) {
    const own = await deps.priceBook.priceOf(model);
    if (own?.model === model) {
      const pricing = tablePricing(own);
      if (pricing) return pricing;
    }
  }
  const table = tablePricing(await deps.priceBook.priceOf(upstreamModel));
  if (table) return table;
  const list = deps.catalogue.facts(upstreamModel).cost;
  if (!list) return undefined;
  return {
    input: list.input,
    output: list.output,
    ...(list.cache_read !== undefined && { cache_read: list.cache_read }),
    ...(list.cache_write !== undefined && { cache_write: list.cache_write }),
  };
}
