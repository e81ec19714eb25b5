import fc from 'fast-check';
import type { PriceRecord } from '../storage/types';
import { costBound, costOf, MAX_COST } from './price-book';

/** The cost by definition, in BigInt: ceil(Σ tokens × price / 1e6), capped. */
function referenceCost(terms: Array<[bigint, number]>): number {
  const scaled = terms.reduce((sum, [tokens, price]) => sum + tokens * BigInt(price), 0n);
  const cost = (scaled + 999_999n) / 1_000_000n;
  return cost > BigInt(MAX_COST) ? MAX_COST : Number(cost);
}

const price = (input: number, output: number, cacheRead: number | null = null, cacheWrite: number | null = null): PriceRecord => ({
  model: 'm',
  input,
  output,
  cacheRead,
  cacheWrite,
});
const tokens = (promptTokens: number, completionTokens: number, cacheReadTokens?: number, cacheWriteTokens?: number) => ({
  promptTokens,
  completionTokens,
  cacheReadTokens,
  cacheWriteTokens,
});
/** claude-sonnet-4's list prices: input 3, cache write 3.75, cache read 0.30, output 15 USD per million. */
const sonnet = price(3_000_000, 15_000_000, 300_000, 3_750_000);

describe('costOf', () => {
  it('rounds up to a whole micro-USD', () => {
    expect(costOf(price(1_000_000, 1_000_000), tokens(3, 4))).toBe(7);
    expect(costOf(price(150_000, 600_000), tokens(10, 0))).toBe(2);
    expect(costOf(price(150_000, 600_000), tokens(0, 0))).toBe(0);
    expect(costOf(undefined, tokens(100, 100, 50, 50))).toBe(0);
  });

  it('prices cache reads and writes apart from the rest of the prompt', () => {
    // 1,000 uncached × 3 + 2,000 read × 0.30 + 10,000 written × 3.75 + 500 out × 15 = 3,000 + 600 + 37,500 + 7,500.
    expect(costOf(sonnet, tokens(13_000, 500, 2_000, 10_000))).toBe(48_600);
    // Only writes: 100,000 × 3.75 USD per million.
    expect(costOf(sonnet, tokens(100_000, 0, 0, 100_000))).toBe(375_000);
    // Only reads: 100,000 × 0.30.
    expect(costOf(sonnet, tokens(100_000, 0, 100_000))).toBe(30_000);
  });

  it('a cache price left unset is the input price', () => {
    const plain = price(3_000_000, 15_000_000);
    expect(costOf(plain, tokens(13_000, 500, 2_000, 10_000))).toBe(costOf(plain, tokens(13_000, 500)));
    expect(costOf(plain, tokens(13_000, 500, 2_000, 10_000))).toBe(46_500);
    // Read priced, write not: the writes cost input.
    expect(costOf(price(3_000_000, 0, 300_000), tokens(3_000, 0, 1_000, 1_000))).toBe(6_000 + 300);
  });

  it('rounds the sum up once, not each part', () => {
    // 1 read × 0.30 + 1 written × 3.75 + 1 uncached × 3 = 7.05 micro-USD → 8 (parts rounded apart would make 1 + 4 + 3).
    expect(costOf(sonnet, tokens(3, 0, 1, 1))).toBe(8);
    expect(costOf(price(1, 1, 1, 1), tokens(1, 0, 1))).toBe(1);
    expect(costOf(price(0, 0, 0, 0), tokens(1_000, 1_000, 500, 500))).toBe(0);
  });

  it('clamps cache counts to the prompt (reads first): never negative, never more than the whole prompt written', () => {
    // Reads beyond the prompt: the whole prompt is read, nothing is uncached or written.
    expect(costOf(sonnet, tokens(1_000, 0, 5_000, 5_000))).toBe(300);
    // Reads and writes together beyond the prompt: writes get what reads leave.
    expect(costOf(sonnet, tokens(1_000, 0, 600, 600))).toBe(Math.ceil(600 * 0.3 + 400 * 3.75));
    expect(costOf(sonnet, tokens(1_000, 0, -600, Number.NaN))).toBe(3_000);
    expect(costOf(sonnet, tokens(0, 0, 1_000, 1_000))).toBe(0);
  });

  it('issue 10 defect 3: stays an exact integer for any token count and price (fast-check)', () => {
    const count = fc.oneof(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }));
    const perMillion = fc.integer({ min: 0, max: 1_000_000_000_000 });
    fc.assert(
      fc.property(count, count, count, count, perMillion, perMillion, perMillion, perMillion, (prompt, completion, read, write, input, output, cacheRead, cacheWrite) => {
        const cost = costOf(price(input, output, cacheRead, cacheWrite), tokens(prompt, completion, read, write));
        const clampedRead = Math.min(read, prompt);
        const clampedWrite = Math.min(write, prompt - clampedRead);
        expect(Number.isSafeInteger(cost)).toBe(true);
        expect(cost).toBe(
          referenceCost([
            [BigInt(prompt - clampedRead - clampedWrite), input],
            [BigInt(clampedRead), cacheRead],
            [BigInt(clampedWrite), cacheWrite],
            [BigInt(completion), output],
          ]),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('huge counts: exact past 2^53 in the sum, capped at MAX_COST', () => {
    // 2^53 − 1 tokens written at 1,000,000 micro-USD per million: exactly 2^53 − 1 micro-USD.
    expect(costOf(price(0, 0, 0, 1_000_000), tokens(MAX_COST, 0, 0, MAX_COST))).toBe(MAX_COST);
    // The products overflow 2^53 though the cost does not: 9e15 written at 2 micro-USD per million = 18,000,000,000.
    expect(costOf(price(1, 0, 0, 2), tokens(9e15, 0, 0, 9e15))).toBe(18_000_000_000);
    // 3e15 uncached × 1 + 3e15 read × 3 + 3e15 written × 3 + 9e15 out × 1 = 3e16 micro-USD per million.
    expect(costOf(price(1, 1, 3, 3), tokens(9e15, 9e15, 3e15, 3e15))).toBe(30_000_000_000);
    // Counts past 2^53 count as 2^53 − 1: all of it read at 0.30 per million, or written at 3.75 (capped).
    expect(costOf(sonnet, tokens(1e300, 0, 1e300, 1e300))).toBe(2_702_159_776_422_298); // ⌈(2^53 − 1) × 3 / 10⌉
    expect(costOf(sonnet, tokens(1e300, 1, 0, 1e300))).toBe(MAX_COST);
  });

  it('treats counts that are not whole numbers ≥ 0 as such: never negative, never NaN', () => {
    const odd = fc.oneof(
      fc.double(),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e300, -1e300, -0),
    );
    fc.assert(
      fc.property(odd, odd, odd, odd, (prompt, completion, read, write) => {
        const cost = costOf(sonnet, tokens(prompt, completion, read, write));
        expect(Number.isSafeInteger(cost) && cost >= 0 && cost <= MAX_COST).toBe(true);
      }),
      { numRuns: 2000 },
    );
    expect(costOf(price(2_500_000, 10_000_000), tokens(1e300, 1))).toBe(MAX_COST);
    expect(costOf(price(2_500_000, 10_000_000), tokens(-5, Number.NaN))).toBe(0);
  });
});

describe('costBound', () => {
  it('prices the whole prompt at the dearest of input, cache read and — when the request marks cache writes — cache write', () => {
    expect(costBound(sonnet, 10_000, 1_000, undefined, { cacheWrites: true })).toBe(37_500 + 15_000);
    // Issue 28 defect 6: a request that marks no cache write is reserved at the input price, not the dearer write price.
    expect(costBound(sonnet, 10_000, 1_000)).toBe(30_000 + 15_000);
    expect(costBound(price(3_000_000, 15_000_000, 300_000), 10_000, 1_000)).toBe(30_000 + 15_000);
    // A cache read dearer than input (a table mistake) still bounds.
    expect(costBound(price(1_000_000, 0, 2_000_000), 10, 0)).toBe(20);
    expect(costBound(undefined, 10, 10)).toBe(0);
  });

  it('is never less than the cost of a request within its counts, however its prompt splits, cache writes marked or none made (fast-check)', () => {
    const perMillion = fc.oneof(fc.integer({ min: 0, max: 20_000_000 }), fc.integer({ min: 0, max: 1_000_000_000_000 }));
    const nullable = fc.option(perMillion, { nil: null });
    const count = fc.oneof(fc.integer({ min: 0, max: 2_000_000 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }));
    fc.assert(
      fc.property(perMillion, perMillion, nullable, nullable, count, count, count, count, count, count, (input, output, cacheRead, cacheWrite, promptBound, completionBound, prompt, completion, read, write) => {
        const table = price(input, output, cacheRead, cacheWrite);
        const used = tokens(Math.min(prompt, promptBound), Math.min(completion, completionBound), read, write);
        expect(costBound(table, promptBound, completionBound, undefined, { cacheWrites: true })).toBeGreaterThanOrEqual(costOf(table, used));
        // Unmarked, the provider writes nothing to its cache: reads and plain input are bounded still.
        const unwritten = tokens(Math.min(prompt, promptBound), Math.min(completion, completionBound), read, 0);
        expect(costBound(table, promptBound, completionBound)).toBeGreaterThanOrEqual(costOf(table, unwritten));
      }),
      { numRuns: 2000 },
    );
  });
});
