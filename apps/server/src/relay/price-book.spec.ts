import fc from 'fast-check';
import { costOf, MAX_COST } from './price-book';

/** The cost by definition, in BigInt: ceil(tokens × price / 1e6), capped. */
function referenceCost(prompt: bigint, completion: bigint, input: number, output: number): number {
  const scaled = prompt * BigInt(input) + completion * BigInt(output);
  const cost = (scaled + 999_999n) / 1_000_000n;
  return cost > BigInt(MAX_COST) ? MAX_COST : Number(cost);
}

const price = (input: number, output: number) => ({ model: 'm', input, output });

describe('costOf', () => {
  it('rounds up to a whole micro-USD', () => {
    expect(costOf(price(1_000_000, 1_000_000), 3, 4)).toBe(7);
    expect(costOf(price(150_000, 600_000), 10, 0)).toBe(2);
    expect(costOf(price(150_000, 600_000), 0, 0)).toBe(0);
    expect(costOf(undefined, 100, 100)).toBe(0);
  });

  it('issue 10 defect 3: stays an exact integer for any token count and price (fast-check)', () => {
    const tokens = fc.oneof(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }));
    const perMillion = fc.integer({ min: 0, max: 1_000_000_000_000 });
    fc.assert(
      fc.property(tokens, tokens, perMillion, perMillion, (prompt, completion, input, output) => {
        const cost = costOf(price(input, output), prompt, completion);
        expect(Number.isSafeInteger(cost)).toBe(true);
        expect(cost).toBe(referenceCost(BigInt(prompt), BigInt(completion), input, output));
      }),
      { numRuns: 2000 },
    );
  });

  it('treats counts that are not whole numbers ≥ 0 as such: never negative, never NaN', () => {
    const odd = fc.oneof(
      fc.double(),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e300, -1e300, -0),
    );
    fc.assert(
      fc.property(odd, odd, (prompt, completion) => {
        const cost = costOf(price(2_500_000, 10_000_000), prompt, completion);
        expect(Number.isSafeInteger(cost) && cost >= 0 && cost <= MAX_COST).toBe(true);
      }),
      { numRuns: 2000 },
    );
    expect(costOf(price(2_500_000, 10_000_000), 1e300, 1)).toBe(MAX_COST);
    expect(costOf(price(2_500_000, 10_000_000), -5, Number.NaN)).toBe(0);
  });
});
