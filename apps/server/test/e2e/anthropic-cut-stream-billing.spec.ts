import { anthropicKind, CLAUDE, openAiKind, startAnthropicRelay, type AnthropicE2e } from './anthropic-e2e';

/**
 * A streamed answer the caller abandons is charged for what it delivered (SPEC §8). Through an
 * Anthropic channel the only counts before `message_delta` are `message_start`'s — its
 * `output_tokens` a placeholder of 1 — and a row taking them as exact undercharged every aborted
 * answer to one token.
 */
describe.each([anthropicKind, openAiKind])('an aborted Messages stream through an $type channel', (kind) => {
  let e2e: AnthropicE2e;
  beforeAll(async () => (e2e = await startAnthropicRelay(kind)));
  afterAll(() => e2e.close());

  it('is charged for the text it delivered, counted by the relay and marked estimated', async () => {
    const stream = e2e.anthropic.messages.stream({
      model: CLAUDE,
      max_tokens: 500,
      messages: [{ role: 'user', content: '[sim:latency=20] Tell me a long story about a lighthouse keeper and the sea.' }],
    });
    let deltas = 0;
    for await (const event of stream) {
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
        if (++deltas === 5) break;
      }
    }
    stream.abort();
    const [row] = await e2e.usageRows(1);
    expect(row?.status).toBe(499);
    expect(row?.usageEstimated).toBe(true);
    // At least the tokens of the 5 deltas that reached the caller, not message_start's placeholder.
    expect(row?.completionTokens).toBeGreaterThanOrEqual(5);
    expect(row?.promptTokens).toBeGreaterThan(0);
  });
});
