import { readResponsesUsage } from './read-responses-usage';

describe('readResponsesUsage', () => {
  it('counts the whole input as the prompt, the cached part apart', () => {
    const usage = { input_tokens: 2006, input_tokens_details: { cached_tokens: 1920 }, output_tokens: 300, output_tokens_details: { reasoning_tokens: 256 }, total_tokens: 2306 };
    expect(readResponsesUsage(usage)).toEqual({ promptTokens: 2006, completionTokens: 300, cacheReadTokens: 1920 });
  });

  it('reads cache writes when a relay in front of Anthropic reports them, and leaves zero counts out', () => {
    expect(readResponsesUsage({ input_tokens: 50, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 40 }, output_tokens: 2 })).toEqual({
      promptTokens: 50,
      completionTokens: 2,
      cacheWriteTokens: 40,
    });
  });

  it('ignores details it cannot read rather than the counts', () => {
    expect(readResponsesUsage({ input_tokens: 5, input_tokens_details: 'n/a', output_tokens: 1 })).toEqual({ promptTokens: 5, completionTokens: 1 });
  });

  it.each([undefined, null, {}, { input_tokens: 5 }, { input_tokens: '5', output_tokens: 1 }, { input_tokens: -1, output_tokens: 1 }, [5, 1]])('has no usage for %p', (usage) => {
    expect(readResponsesUsage(usage)).toBeUndefined();
  });
});
