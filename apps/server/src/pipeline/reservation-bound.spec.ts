import type { ChatCompletionRequest } from '@chat-relay/contract';
import { countTokens } from 'gpt-tokenizer';
import fc from 'fast-check';
import {
  completionTokenBound,
  DEFAULT_COMPLETION_RESERVATION,
  FOREIGN_TOKENIZER_MARGIN,
  MEDIA_PART_TOKENS,
  promptAllowance,
  promptTokenBound,
  promptTokenEstimate,
  tokenizerMargin,
} from './reservation-bound';

const ask = (content: ChatCompletionRequest['messages'][number]['content'], extra: Partial<ChatCompletionRequest> = {}): ChatCompletionRequest =>
  ({ model: 'gpt-4o', messages: [{ role: 'user', content }], ...extra }) as ChatCompletionRequest;
const bytesOf = (request: ChatCompletionRequest) => Buffer.byteLength(JSON.stringify(request));

describe('promptTokenBound', () => {
  it('is at least the o200k count of any text sent, plus OpenAI framing (fast-check: unicode, commas, CJK, emoji)', () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 300 }),
      fc.string({ unit: fc.constantFrom(',', '。', '的', '🙂', ' ', 'a', '\n'), maxLength: 400 }),
    );
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), (texts) => {
        const request = { model: 'gpt-4o', messages: texts.map((content) => ({ role: 'user' as const, content })) };
        const counted = 3 + texts.reduce((sum, content) => sum + 4 + countTokens(content), 0);
        expect(promptTokenBound(request, bytesOf(request))).toBeGreaterThanOrEqual(counted);
      }),
      { numRuns: 300 },
    );
  });

  it('adds an allowance for each image or file part, however short its link', () => {
    const text = ask([{ type: 'text', text: 'what is this?' }]);
    const image = ask([
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: 'https://x.test/a.png' } },
      { type: 'image_url', image_url: { url: 'https://x.test/b.png' } },
    ]);
    expect(promptTokenBound(image, bytesOf(image)) - promptTokenBound(text, bytesOf(image))).toBe(2 * MEDIA_PART_TOKENS);
  });

  it('adds room for the instructions an upstream writes for tools', () => {
    const plain = ask('hi');
    const tools = ask('hi', { tools: [{ type: 'function', function: { name: 'f' } }] });
    expect(promptTokenBound(tools, 100) - promptTokenBound(plain, 100)).toBeGreaterThanOrEqual(346);
  });
});

describe('completionTokenBound', () => {
  it('is n × the larger limit the request sets, else n × the default', () => {
    expect(completionTokenBound(ask('hi'))).toBe(DEFAULT_COMPLETION_RESERVATION);
    expect(completionTokenBound(ask('hi'), 16)).toBe(16);
    expect(completionTokenBound(ask('hi', { max_tokens: 50 }))).toBe(50);
    expect(completionTokenBound(ask('hi', { max_tokens: 50, max_completion_tokens: 80, n: 3 }))).toBe(240);
    expect(completionTokenBound(ask('hi', { max_completion_tokens: 10, n: null }))).toBe(10);
    // A predicted output's rejected tokens are billed as completion tokens: its bytes bound them.
    expect(completionTokenBound(ask('hi', { max_tokens: 10, prediction: { type: 'content', content: 'abcd' } }))).toBe(10 + 35);
  });
});

/** Issue 28 defect 6: the reservation is a realistic bound, not a lock-out. */
describe('completionTokenBound with the model limit and the reservation cap', () => {
  it('counts the least of the request, the model and the cap, per choice', () => {
    const claudeCode = ask('hi', { max_tokens: 32_000 });
    expect(completionTokenBound(claudeCode, { modelLimit: 64_000, cap: 8_192 })).toBe(8_192);
    expect(completionTokenBound(ask('hi', { max_tokens: 32_000, n: 2 }), { modelLimit: 16_384, cap: 100_000 })).toBe(2 * 16_384);
    expect(completionTokenBound(ask('hi', { max_tokens: 50 }), { modelLimit: 16_384, cap: 8_192 })).toBe(50);
    // No limit of its own: the default, still under the cap.
    expect(completionTokenBound(ask('hi'), { defaultTokens: 20_000, cap: 8_192 })).toBe(8_192);
  });
});

describe('promptTokenEstimate', () => {
  const request = ask('The quick brown fox jumps over the lazy dog. '.repeat(200));
  const bytes = bytesOf(request);

  it('takes the count as it is for OpenAI o200k models, with the stated margin for others, plus what the tokenizer never sees', () => {
    expect(tokenizerMargin('openai', 'gpt-4o')).toBe(1);
    expect(tokenizerMargin('openai', 'gpt-5-mini')).toBe(1);
    expect(tokenizerMargin('openai', 'gpt-4-turbo')).toBe(FOREIGN_TOKENIZER_MARGIN);
    expect(tokenizerMargin('openai', 'gpt-3.5-turbo')).toBe(FOREIGN_TOKENIZER_MARGIN);
    expect(tokenizerMargin('anthropic', 'claude-sonnet-4-5')).toBe(FOREIGN_TOKENIZER_MARGIN);
    const allowance = promptAllowance(request);
    expect(promptTokenEstimate(1_000, request, 'openai', 'gpt-4o', bytes)).toBe(1_000 + allowance);
    expect(promptTokenEstimate(1_000, request, 'anthropic', 'claude-sonnet-4-5', bytes)).toBe(Math.ceil(1_000 * FOREIGN_TOKENIZER_MARGIN) + allowance);
  });

  it('is far below the byte bound for ordinary text, and never above it', () => {
    const estimate = promptTokenEstimate(2_000, request, 'anthropic', 'claude-sonnet-4-5', promptTokenBound(request, bytes));
    expect(estimate).toBeLessThan(promptTokenBound(request, bytes) / 2);
    expect(promptTokenEstimate(1_000_000, request, 'anthropic', 'claude-sonnet-4-5', 5_000)).toBe(5_000);
  });
});
