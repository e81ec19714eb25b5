import type { PriceRecord, PriceStore } from '../storage/types';
import { matchesModelPattern } from './model-pattern';

/** Micro-USD for a request: tokens × price per million, rounded up to a whole micro-USD. */
export function costOf(price: PriceRecord | undefined, promptTokens: number, completionTokens: number): number {
  if (!price) return 0;
  return Math.ceil((promptTokens * price.input + completionTokens * price.output) / 1_000_000);
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
