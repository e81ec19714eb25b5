import { LocalChangeFeed, type ChangeFeed } from '../core/change-feed';
import type { HostedToolKind, ModelListPrice, UsageEndpoint as Endpoint } from '@chat-relay/contract';
import type { ModelFacts } from '@chat-relay/wire';
import type { PriceRecord, PriceStore } from '../storage/types';
import { matchesModelPattern } from '../core/model-pattern';
import { imagePriceBound, unitCost, videoSecondPriceBound } from './unit-cost';

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
  // An entry without token prices (free, or one priced by its units) charges its tokens nothing.
  const input = price.input ?? 0;
  const output = price.output ?? 0;
  return scaledCost(
    [
      [prompt - read - write, input],
      [read, price.cacheRead ?? input],
      [write, price.cacheWrite ?? input],
      [completion - audio, output],
      [audio, price.audioOutput ?? output],
    ],
    tierMilli(price, tokens.serviceTier),
  );
}

/** What a passthrough request may add to its cost, as far as its request says: its tier and the hosted tool kinds it offers. */
export interface PassthroughBound {
  serviceTier?: string | null;
  /** Each kind bounded at one call: how many a model makes is known only from the answer. */
  toolKinds?: readonly HostedToolKind[];
  /** The request marks prompt caching (Anthropic `cache_control`): its prompt may be written to the cache, at `cache_write`. */
  cacheWrites?: boolean;
}

/**
 * The reservation's estimate of {@link costOf} for a request of at most `promptTokens` and
 * `completionTokens`: the whole prompt at the input price (or the cache-read price, were it
 * dearer) — at the cache-write price too only when the request marks cache writes
 * (`passthrough.cacheWrites`), since no provider writes a prompt to its cache unasked — the
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
  const input = price.input ?? 0;
  // A read costs less than input everywhere; a write more — charged only when the request asks for one.
  const promptPrice = Math.max(input, price.cacheRead ?? 0, passthrough?.cacheWrites ? (price.cacheWrite ?? 0) : 0);
  const completionPrice = Math.max(price.output ?? 0, price.audioOutput ?? 0);
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

/** What the catalogue tells the price book: a model's list price (USD per million tokens). */
export interface ListPrices {
  facts(model: string): Pick<ModelFacts, 'entry' | 'cost'>;
}

/** {@link PriceBook.knownPriceFor}: the answer needs the table loaded, or a lookup, first. */
export const NOT_KNOWN_YET: unique symbol = Symbol('price not known yet');

/** The price a request is charged at, and what it came from (the usage row's `priced_by`). */
export interface AppliedPrice {
  price: PriceRecord;
  /** `gpt-4o* (table)`, `claude-fast (table, alias)`, `gpt-4o (catalogue)`, with `, free` when marked free. */
  pricedBy: string;
}

/** Endpoints whose requests are billed by the token: an entry without token prices does not price them. */
const TOKEN_ENDPOINTS: ReadonlySet<Endpoint> = new Set<Endpoint>(['chat', 'completions', 'embeddings', 'moderations']);

/**
 * Whether `price` prices a request of `endpoint`: a free entry always; a token-priced endpoint
 * needs the entry's token prices (a video model's entry without `input`/`output` must not serve
 * chat for nothing); an endpoint priced by its units takes any entry (its tokens, if reported, at
 * the entry's token prices or nothing).
 */
export function pricesEndpoint(price: PriceRecord, endpoint: Endpoint): boolean {
  if (price.free) return true;
  if (!TOKEN_ENDPOINTS.has(endpoint)) return true;
  return price.input !== null && price.input !== undefined && price.output !== null && price.output !== undefined;
}

const microPerMillion = (usd: number | undefined): number | null => (usd === undefined ? null : Math.round(usd * PER_MILLION));

/** A catalogue list price (USD per million) as a price entry (micro-USD per million), its cache and audio prices too. */
function listPriceRecord(model: string, cost: ModelListPrice): PriceRecord {
  const audioOutput = microPerMillion(cost.output_audio);
  return {
    model,
    input: microPerMillion(cost.input),
    output: microPerMillion(cost.output),
    cacheRead: microPerMillion(cost.cache_read),
    cacheWrite: microPerMillion(cost.cache_write),
    ...(audioOutput !== null ? { audioOutput } : {}),
  };
}

/**
 * The price table held in memory (the hot path reads no database); `invalidate()` after every
 * write, heard by every instance (the change feed). A model's price is the first entry whose name equals it, else the first glob matching it.
 * {@link priceFor} prices a request by the upstream model that served it, the catalogue's list
 * price behind the table.
 */
export class PriceBook {
  private prices: PriceRecord[] | undefined;
  private loading: Promise<PriceRecord[]> | undefined;
  /** Catalogue list prices as entries, per catalogue answer (a reloaded catalogue answers anew). */
  private readonly listed = new WeakMap<ModelListPrice, PriceRecord>();

  constructor(
    private readonly store: PriceStore,
    private readonly changes: ChangeFeed = new LocalChangeFeed(),
    private readonly catalogue?: ListPrices,
  ) {
    changes.subscribe('prices', () => this.forgetLoaded());
  }

  /** Answers by model name: every request asks, and the table rarely changes. */
  private readonly byModel = new Map<string, PriceRecord | undefined>();
  /** The table's exact entries by name, for an alias priced on purpose. */
  private exact: Map<string, PriceRecord> | undefined;

  /** The table was written: every instance sharing the database reloads it. */
  invalidate(): void {
    this.changes.publish('prices');
  }

  private forgetLoaded(): void {
    this.prices = undefined;
    this.loading = undefined;
    this.exact = undefined;
    this.byModel.clear();
  }

  /** The table's entry for `model`: its exact name, else the first glob matching it. */
  async priceOf(model: string): Promise<PriceRecord | undefined> {
    if (this.byModel.has(model)) return this.byModel.get(model);
    const prices = await this.all();
    const price = prices.find((entry) => entry.model === model) ?? prices.find((entry) => matchesModelPattern(entry.model, model));
    // Bounded: callers choose model names, so forget them all past a generous number.
    if (this.byModel.size >= 10_000) this.byModel.clear();
    if (this.prices === prices) this.byModel.set(model, price);
    return price;
  }

  /**
   * The price of a request for `publicModel` served as `upstreamModel` on `endpoint` (SPEC §8),
   * the first of: the table's exact entry for the public name when it differs (the operator priced
   * the alias on purpose); the table's entry for the upstream model (exact, then glob); the
   * catalogue's list price for the upstream model. Undefined: unpriced — nothing found, or what
   * was found has no token prices for a token-priced endpoint (and is not free).
   */
  async priceFor(publicModel: string, upstreamModel: string, endpoint: Endpoint): Promise<AppliedPrice | undefined> {
    const known = this.knownPriceFor(publicModel, upstreamModel, endpoint);
    if (known !== NOT_KNOWN_YET) return known;
    if (publicModel !== upstreamModel) {
      await this.all();
      const alias = this.exact?.get(publicModel);
      if (alias) return applied(alias, endpoint, 'table, alias');
    }
    const entry = await this.priceOf(upstreamModel);
    if (entry) return applied(entry, endpoint, 'table');
    return this.listPrice(upstreamModel, endpoint);
  }

  /**
   * {@link priceFor}'s answer without a promise, once the table is loaded and `upstreamModel` has
   * been looked up in it (every request for a model after its first); else NOT_KNOWN_YET. The hot
   * path asks this first: the async answer costs a chain of promises per request.
   */
  knownPriceFor(publicModel: string, upstreamModel: string, endpoint: Endpoint): AppliedPrice | undefined | typeof NOT_KNOWN_YET {
    if (!this.prices) return NOT_KNOWN_YET;
    if (publicModel !== upstreamModel) {
      const alias = this.exact?.get(publicModel);
      if (alias) return applied(alias, endpoint, 'table, alias');
    }
    if (!this.byModel.has(upstreamModel)) return NOT_KNOWN_YET;
    const entry = this.byModel.get(upstreamModel);
    return entry ? applied(entry, endpoint, 'table') : this.listPrice(upstreamModel, endpoint);
  }

  /** The catalogue's list price of `upstreamModel`, behind the table. */
  private listPrice(upstreamModel: string, endpoint: Endpoint): AppliedPrice | undefined {
    const facts = this.catalogue?.facts(upstreamModel);
    if (!facts?.cost) return undefined;
    let listed = this.listed.get(facts.cost);
    if (!listed) this.listed.set(facts.cost, (listed = listPriceRecord(facts.entry?.id ?? upstreamModel, facts.cost)));
    return applied(listed, endpoint, 'catalogue');
  }

  private async all(): Promise<PriceRecord[]> {
    if (this.prices) return this.prices;
    this.loading ??= this.store.list().then((prices) => {
      this.exact = new Map(prices.map((price) => [price.model, price]));
      return (this.prices = prices);
    });
    return this.loading;
  }
}

function applied(price: PriceRecord, endpoint: Endpoint, source: string): AppliedPrice | undefined {
  if (!pricesEndpoint(price, endpoint)) return undefined;
  return { price, pricedBy: `${price.model} (${source}${price.free ? ', free' : ''})` };
}
