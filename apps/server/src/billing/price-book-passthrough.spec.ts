import type { PriceRecord } from '../storage/types';
import { costBound, costOf, MAX_COST, tierMilli } from './price-book';

/** gpt-4.1: $2 / $8 per million tokens, $0.50 cached; priority 1.75×, flex 0.5×; web search $10 / 1k; audio out $80 / M. */
const PRICE: PriceRecord = {
  model: 'gpt-4.1',
  input: 2_000_000,
  output: 8_000_000,
  cacheRead: 500_000,
  cacheWrite: null,
  toolCalls: { web_search: 10_000, image_generation: 42_000 },
  serviceTiers: { priority: 1.75, flex: 0.5 },
  audioOutput: 80_000_000,
};

describe('costOf: what a passthrough answer ran', () => {
  const tokens = { promptTokens: 1_000, completionTokens: 500, cacheReadTokens: 200 };
  // 800 × 2 + 200 × 0.5 + 500 × 8 = 1,600 + 100 + 4,000 = 5,700 micro-USD.
  const plain = 5_700;

  it('each hosted call at its kind’s price, a kind with no price at nothing', () => {
    expect(costOf(PRICE, tokens)).toBe(plain);
    expect(costOf(PRICE, { ...tokens, hostedToolCalls: { web_search: 3, image_generation: 1, code_execution: 5 } })).toBe(plain + 30_000 + 42_000);
  });

  it('a premium tier multiplies the token cost, cache reads included, rounded once; calls are not multiplied', () => {
    expect(costOf(PRICE, { ...tokens, serviceTier: 'priority' })).toBe(9_975);
    expect(costOf(PRICE, { ...tokens, serviceTier: 'flex' })).toBe(2_850);
    expect(costOf(PRICE, { ...tokens, serviceTier: 'priority', hostedToolCalls: { web_search: 1 } })).toBe(9_975 + 10_000);
    // 1 token at $2 / M is 2 micro-USD; at 1.75× 3.5, charged 4 (never rounded twice: not ceil(2) × 1.75 = 3.5 → 4 either way, see next).
    expect(costOf(PRICE, { promptTokens: 1, completionTokens: 0, serviceTier: 'priority' })).toBe(4);
    // 3 prompt tokens at $0.1 / M: 0.3 micro-USD; doubled, 0.6, charged 1 — not ceil(0.3) × 2 = 2.
    expect(costOf({ ...PRICE, input: 100_000, serviceTiers: { priority: 2 } }, { promptTokens: 3, completionTokens: 0, serviceTier: 'priority' })).toBe(1);
  });

  it('a tier the table does not price, or none, costs the standard price', () => {
    expect(tierMilli(PRICE, 'scale')).toBe(1_000);
    expect(tierMilli(PRICE, null)).toBe(1_000);
    expect(costOf(PRICE, { ...tokens, serviceTier: 'scale' })).toBe(plain);
  });

  it('audio output tokens at the audio price, the rest of the completion at the output price; clamped to the completion', () => {
    // 800 × 2 + 200 × 0.5 + 100 × 8 + 400 × 80 = 1,600 + 100 + 800 + 32,000.
    expect(costOf(PRICE, { ...tokens, audioOutputTokens: 400 })).toBe(34_500);
    expect(costOf(PRICE, { ...tokens, audioOutputTokens: 9_999 })).toBe(1_600 + 100 + 500 * 80);
    expect(costOf({ ...PRICE, audioOutput: null }, { ...tokens, audioOutputTokens: 400 })).toBe(plain);
  });

  it('stays exact past 2^53 and never above MAX_COST', () => {
    const huge = { promptTokens: 2 ** 40, completionTokens: 2 ** 40, serviceTier: 'priority' };
    expect(costOf({ ...PRICE, input: 1, output: 1 }, huge)).toBe(Math.ceil((2 ** 41 * 1.75) / 1_000_000));
    expect(costOf(PRICE, { ...huge, hostedToolCalls: { web_search: Number.MAX_SAFE_INTEGER } })).toBe(MAX_COST);
  });

  it('the reservation bound prices the completion at the dearer of output and audio', () => {
    expect(costBound(PRICE, 0, 1_000)).toBe(80_000);
  });

  it('the reservation bound takes the tier asked for (never below the standard price) and one call of each hosted kind offered', () => {
    const plain = costBound(PRICE, 1_000, 0);
    expect(plain).toBe(2_000);
    expect(costBound(PRICE, 1_000, 0, undefined, { serviceTier: 'priority' })).toBe(3_500);
    expect(costBound(PRICE, 1_000, 0, undefined, { serviceTier: 'flex' })).toBe(plain);
    expect(costBound(PRICE, 1_000, 0, undefined, { toolKinds: ['web_search', 'image_generation', 'mcp'] })).toBe(plain + 10_000 + 42_000);
  });
});
