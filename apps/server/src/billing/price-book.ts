import { LocalChangeFeed, type ChangeFeed } from '../core/change-feed';
import type { Endpoint, HostedToolKind } from '@chat-relay/contract';
import type { PriceRecord, PriceStore } from '../storage/types';
import { matchesModelPattern } from '../core/model-pattern';

/** The largest cost (micro-USD) an amount can carry: quotas are safe integers. */
export const MAX_COST = Number.MAX_SAFE_INTEGER;
const PER_MILLION = 1_000_000;

/**
 * The tokens a request is billed, counted the OpenAI way: `promptTokens` is the whole prompt,
 * the cache reads and writes among it (RelayTrace and the adapters' ReportedUsage fit it).
 */
export interface BilledTokens {
  promptTokens: number;
  completionTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** Which endpoint: decides what `units` are (absent: chat, which has none). */
  endpoint?: Endpoint;
  /** Images, search units, speech characters, audio seconds, video seconds, songs or search queries (see RelayTrace). */
  units?: number;
  /** Images: `quality/size`; videos: the size. */
  unitVariant?: string | null;
  /** Hosted tool calls a passthrough answer ran, by kind: each at its `toolCalls` price. */
  hostedToolCalls?: Partial<Record<HostedToolKind, number>> | null;
  /** A premium tier served: the token cost times its `serviceTiers` multiplier (1 when it has none). */
  serviceTier?: string | null;
  /** Of `completionTokens`, audio ones: at the `audioOutput` price (the `output` price when it has none). */
  audioOutputTokens?: number;
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
export function unitCost(price: PriceRecord, billed: Pick<BilledTokens, 'endpoint' | 'units' | 'unitVariant'>): number {
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

/** A token count as a whole number ≥ 0: upstream usage is not trusted to be one. */
const wholeTokens = (count: number | undefined): number => (count !== undefined && count > 0 ? Math.min(Math.ceil(count), MAX_COST) : 0);

/** A tier's multiplier in thousandths (`1.75` → 1750); 1000 for the standard tier or one without a price. */
export function tierMilli(price: PriceRecord, tier: string | null | undefined): number {
  const multiplier = tier ? price.serviceTiers?.[tier] : undefined;
  return multiplier !== undefined && Number.isFinite(multiplier) && multiplier > 0 ? Math.round(multiplier * 1000) : 1000;
}

/**
 * ceil(Σ tokens × price × milli / 1e9) for (tokens, price) pairs — the micro-USD of tokens priced
 * per million, times a tier multiplier in thousandths — in exact integer arithmetic: never a float
 * past 2^53, at most {@link MAX_COST}. Usual requests take the first branch; only absurd counts or
 * prices (or a multiplier on a very large request) pay for BigInt.
 */
function scaledCost(pairs: readonly (readonly [number, number])[], milli = 1000): number {
  // Exact when at most 2^53 - 1: a product or partial sum that is not rounds to 2^53 or more,
  // and adding terms ≥ 0 never brings it back under.
  let scaled = 0;
  for (const [tokens, price] of pairs) scaled += tokens * price;
  const [numerator, divisor] = milli === 1000 ? [scaled, PER_MILLION] : [scaled * milli, PER_MILLION * 1000];
  if (numerator <= Number.MAX_SAFE_INTEGER) {
    const rest = numerator % divisor;
    return (numerator - rest) / divisor + (rest > 0 ? 1 : 0);
  }
  let exact = BigInt(0);
  for (const [tokens, price] of pairs) exact += BigInt(tokens) * BigInt(Math.ceil(price));
  exact *= BigInt(milli);
  const bigDivisor = BigInt(PER_MILLION) * BigInt(1000);
  const cost = (exact + bigDivisor - BigInt(1)) / bigDivisor;
  return cost > BigInt(MAX_COST) ? MAX_COST : Number(cost);
}

/** Micro-USD for the hosted tool calls a passthrough answer ran: each kind's calls × its `toolCalls` price. */
export function hostedToolCost(price: PriceRecord, calls: BilledTokens['hostedToolCalls']): number {
  if (!calls) return 0;
  let cost = 0;
  for (const [kind, count] of Object.entries(calls) as [HostedToolKind, number | undefined][]) {
    const perCall = price.toolCalls?.[kind];
    if (count && count > 0 && perCall) cost += Math.ceil(count) * perCall;
  }
  return Math.min(cost, MAX_COST);
}

/**
 * Micro-USD for a request: (prompt − cache reads − cache writes) × input + cache reads ×
 * cache_read + cache writes × cache_write + (completion − audio) × output + audio × audio_output,
 * prices in micro-USD per million tokens (a missing cache price is the input price, a missing
 * audio price the output price), times the served tier's multiplier, rounded up to a whole
 * micro-USD; then the endpoint's units and the hosted tool calls a passthrough answer ran. Never
 * negative: cache counts are clamped to the prompt (reads first), audio to the completion; never
 * more than {@link MAX_COST}.
 */
export function costOf(price: PriceRecord | undefined, tokens: BilledTokens): number {
  if (!price) return 0;
  const cost = tokenCost(price, tokens);
  const extra = (tokens.units ? unitCost(price, tokens) : 0) + hostedToolCost(price, tokens.hostedToolCalls);
  return extra > 0 ? Math.min(cost + extra, MAX_COST) : cost;
}

function tokenCost(price: PriceRecord, tokens: BilledTokens): number {
  const prompt = wholeTokens(tokens.promptTokens);
  const read = Math.min(wholeTokens(tokens.cacheReadTokens), prompt);
  const write = Math.min(wholeTokens(tokens.cacheWriteTokens), prompt - read);
  const completion = wholeTokens(tokens.completionTokens);
  const audio = Math.min(wholeTokens(tokens.audioOutputTokens), completion);
  return scaledCost(
    [
      [prompt - read - write, price.input],
      [read, price.cacheRead ?? price.input],
      [write, price.cacheWrite ?? price.input],
      [completion - audio, price.output],
      [audio, price.audioOutput ?? price.output],
    ],
    tierMilli(price, tokens.serviceTier),
  );
}

/** What a passthrough request may add to its cost, as far as its request says: its tier and the hosted tool kinds it offers. */
export interface PassthroughBound {
  serviceTier?: string | null;
  /** Each kind bounded at one call: how many a model makes is known only from the answer. */
  toolKinds?: readonly HostedToolKind[];
}

/**
 * An upper bound of {@link costOf} for a request of at most `promptTokens` and `completionTokens`,
 * however much of the prompt turns out to be read from or written to the cache: the whole prompt
 * at the dearest of the three prompt prices (a cache write usually costs more than input), the
 * completion at the dearer of output and audio output, times the tier asked for, plus one call of
 * each hosted tool kind offered.
 */
export function costBound(
  price: PriceRecord | undefined,
  promptTokens: number,
  completionTokens: number,
  units?: Pick<BilledTokens, 'endpoint' | 'units' | 'unitVariant'>,
  passthrough?: PassthroughBound,
): number {
  if (!price) return 0;
  const promptPrice = Math.max(price.input, price.cacheRead ?? 0, price.cacheWrite ?? 0);
  const completionPrice = Math.max(price.output, price.audioOutput ?? 0);
  const pairs = [[wholeTokens(promptTokens), promptPrice], [wholeTokens(completionTokens), completionPrice]] as const;
  const tokens = scaledCost(pairs, Math.max(1000, tierMilli(price, passthrough?.serviceTier)));
  const calls = Object.fromEntries((passthrough?.toolKinds ?? []).map((kind) => [kind, 1]));
  const hosted = hostedToolCost(price, calls);
  if (!units) return Math.min(tokens + hosted, MAX_COST);
  // Images and videos: at the most their variant can cost, since the variant charged may come from the answer.
  let unitPrice = price;
  if (units.endpoint === 'images') unitPrice = { ...price, image: imagePriceBound(price, units.unitVariant), imageVariants: null };
  if (units.endpoint === 'videos') unitPrice = { ...price, videoSecond: videoSecondPriceBound(price, units.unitVariant), videoSecondVariants: null };
  return Math.min(tokens + hosted + unitCost(unitPrice, units), MAX_COST);
}

/**
 * The price table held in memory (the hot path reads no database); `invalidate()` after every
 * write, heard by every instance (the change feed). A model's price is the first entry whose name equals it, else the first glob matching it.
 */
export class PriceBook {
  private prices: PriceRecord[] | undefined;
  private loading: Promise<PriceRecord[]> | undefined;

  constructor(
    private readonly store: PriceStore,
    private readonly changes: ChangeFeed = new LocalChangeFeed(),
  ) {
    changes.subscribe('prices', () => this.forgetLoaded());
  }

  /** Answers by model name: every request asks, and the table rarely changes. */
  private readonly byModel = new Map<string, PriceRecord | undefined>();

  /** The table was written: every instance sharing the database reloads it. */
  invalidate(): void {
    this.changes.publish('prices');
  }

  private forgetLoaded(): void {
    this.prices = undefined;
    this.loading = undefined;
    this.byModel.clear();
  }

  async priceOf(model: string): Promise<PriceRecord | undefined> {
    if (this.byModel.has(model)) return this.byModel.get(model);
    const prices = await this.all();
    const price = prices.find((entry) => entry.model === model) ?? prices.find((entry) => matchesModelPattern(entry.model, model));
    // Bounded: callers choose model names, so forget them all past a generous number.
    if (this.byModel.size >= 10_000) this.byModel.clear();
    if (this.prices === prices) this.byModel.set(model, price);
    return price;
  }

  private async all(): Promise<PriceRecord[]> {
    if (this.prices) return this.prices;
    this.loading ??= this.store.list().then((prices) => (this.prices = prices));
    return this.loading;
  }
}
