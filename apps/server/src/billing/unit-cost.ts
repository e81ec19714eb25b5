import type { PriceRecord } from '../storage/types';
import type { UsageEndpoint as Endpoint } from '@chat-relay/contract';

const PER_MILLION = 1_000_000;
/** The largest cost (micro-USD) an amount can carry (as price-book's MAX_COST: quotas are safe integers). */
const MAX_COST = Number.MAX_SAFE_INTEGER;

/** An endpoint's own units used, as billed (BilledTokens holds them). */
export interface UnitUsage {
  endpoint?: Endpoint;
  units?: number;
  unitVariant?: string | null;
}

/** The table's own entry for `variant` (never one inherited from Object's prototype). */
const listed = (variants: Record<string, number> | null | undefined, variant: string | null | undefined): number | undefined =>
  variants && variant && Object.prototype.hasOwnProperty.call(variants, variant) ? variants[variant] : undefined;

/** The dearest of a plain price and its variants': what a reservation assumes when the variant charged is not known yet. */
const dearest = (plain: number | null | undefined, variants: Record<string, number> | null | undefined): number =>
  Math.max(plain ?? 0, ...Object.values(variants ?? {}));

/** An image's price: by `quality/size`, then size, then quality, then the plain `image` price. */
export function imagePrice(price: PriceRecord, variant: string | null | undefined): number {
  if (variant) {
    const slash = variant.indexOf('/');
    const candidates = slash < 0 ? [variant] : [variant, variant.slice(slash + 1), variant.slice(0, slash)];
    for (const candidate of candidates) {
      const found = listed(price.imageVariants, candidate);
      if (found !== undefined) return found;
    }
  }
  return price.image ?? 0;
}

/**
 * The most an image of `variant` can be charged, for a reservation: the price of exactly that
 * `quality/size` when the request named both and the table has it; otherwise — a quality or size
 * left to the upstream's default or to `auto` — the dearest image price of the table, since the
 * variant it is charged at is known only from the answer.
 */
export function imagePriceBound(price: PriceRecord, variant: string | null | undefined): number {
  return (variant?.includes('/') ? listed(price.imageVariants, variant) : undefined) ?? dearest(price.image, price.imageVariants);
}

/** A second of video's price: by its size, else the plain `videoSecond` price. */
export function videoSecondPrice(price: PriceRecord, variant: string | null | undefined): number {
  return listed(price.videoSecondVariants, variant) ?? price.videoSecond ?? 0;
}

/**
 * The most a second of video of `variant` can be charged, for a reservation: the price of that
 * size when the request named one the table has; otherwise — no size, so the upstream's default,
 * or one the table lacks while the answer may report another — the dearest of the table.
 */
export function videoSecondPriceBound(price: PriceRecord, variant: string | null | undefined): number {
  return listed(price.videoSecondVariants, variant) ?? dearest(price.videoSecond, price.videoSecondVariants);
}

/** Micro-USD for `seconds` at `perUnit` micro-USD per `secondsPerUnit` seconds, counted in whole milliseconds. */
function bySecond(seconds: number, perUnit: number, secondsPerUnit: number): number {
  // In whole milliseconds: seconds × price in floats lands just above a whole micro-USD
  // (1.1 s at 6,000 a minute is 110.00000000000001) and would be rounded up.
  return (Math.round(seconds * 1000) * perUnit) / (secondsPerUnit * 1000);
}

/**
 * Micro-USD for an endpoint's own units, rounded up: images × their price, search units × the
 * search price, characters per million, audio seconds at the per-minute price, video seconds at
 * their size's price, songs × the song price, web search queries × the query price.
 */
export function unitCost(price: PriceRecord, billed: UnitUsage): number {
  const units = billed.units ?? 0;
  if (!(units > 0) || !Number.isFinite(units)) return 0;
  let cost: number;
  switch (billed.endpoint) {
    case 'images':
      cost = Math.ceil(units) * imagePrice(price, billed.unitVariant);
      break;
    case 'rerank':
      cost = Math.ceil(units) * (price.searchUnit ?? 0);
      break;
    case 'audio_speech':
      cost = (Math.ceil(units) * (price.characters ?? 0)) / PER_MILLION;
      break;
    case 'audio_transcriptions':
      cost = bySecond(units, price.audioMinute ?? 0, 60);
      break;
    case 'videos':
      cost = bySecond(units, videoSecondPrice(price, billed.unitVariant), 1);
      break;
    case 'music':
      cost = Math.ceil(units) * (price.song ?? 0);
      break;
    case 'search':
      cost = Math.ceil(units) * (price.searchQuery ?? 0);
      break;
    default:
      return 0;
  }
  return Math.min(Math.ceil(cost), MAX_COST);
}

