import type { PriceRecord, PriceStore } from '../storage/types';
import { matchesModelPattern } from './model-pattern';

/** The largest cost (micro-USD) an amount can carry: quotas are safe integers. */
export const MAX_COST = Number.MAX_SAFE_INTEGER;
const PER_MILLION = 1_000_000;

/** A token count as a whole number ≥ 0: upstream usage is not trusted to be one. */
const wholeTokens = (count: number): number => (count > 0 ? Math.min(Math.ceil(count), MAX_COST) : 0);

/**
 * Micro-USD for a request: tokens × price (micro-USD per million tokens), rounded up to a whole
 * micro-USD, in exact integer arithmetic — never a float past 2^53, never negative, at most
 * {@link MAX_COST}. Usual requests take the first branch; only absurd counts pay for BigInt.
 */
export function costOf(price: PriceRecord | undefined, promptTokens: number, completionTokens: number): number {
  if (!price) return 0;
  const prompt = wholeTokens(promptTokens);
  const completion = wholeTokens(completionTokens);
  // Exact when at most 2^53 - 1: each product and the sum round upwards past it if they are not.
  const scaled = prompt * price.input + completion * price.output;
  if (scaled <= Number.MAX_SAFE_INTEGER) {
    const rest = scaled % PER_MILLION;
    return (scaled - rest) / PER_MILLION + (rest > 0 ? 1 : 0);
  }
  const exact = BigInt(prompt) * BigInt(Math.ceil(price.input)) + BigInt(completion) * BigInt(Math.ceil(price.output));
  const cost = (exact + BigInt(PER_MILLION - 1)) / BigInt(PER_MILLION);
  return cost > BigInt(MAX_COST) ? MAX_COST : Number(cost);
}

/**
 * The price table held in memory (the hot path reads no database); `invalidate()` after every
 * write. A model's price is the first entry whose name equals it, else the first glob matching it.
 */
export class PriceBook {
  private prices: PriceRecord[] | undefined;
  private loading: Promise<PriceRecord[]> | undefined;

  constructor(private readonly store: PriceStore) {}

  /** Answers by model name: every request asks, and the table rarely changes. */
  private readonly byModel = new Map<string, PriceRecord | undefined>();

  invalidate(): void {
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
