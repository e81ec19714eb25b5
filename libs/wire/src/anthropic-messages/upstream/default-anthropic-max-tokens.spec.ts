import { defaultAnthropicMaxTokens } from './default-anthropic-max-tokens';
import { convertForTest, userMessage } from '../testing/convert-for-test';

describe('defaultAnthropicMaxTokens', () => {
  it.each([
    ['claude-3-haiku-20240307', 4096],
    ['claude-3-opus-20240229', 4096],
    ['claude-3-5-sonnet-20241022', 8192],
    ['claude-3-5-haiku-latest', 8192],
    ['claude-3-7-sonnet-20250219', 64000],
    ['claude-opus-4-20250514', 32000],
    ['claude-opus-4-0', 32000],
    ['claude-opus-4-1-20250805', 32000],
    ['claude-opus-4-5', 64000],
    ['claude-opus-4-6', 64000],
    ['claude-sonnet-4-20250514', 64000],
    ['claude-sonnet-4-5-20250929', 64000],
    ['claude-haiku-4-5', 64000],
    ['claude-2.1', 4096],
    ['some-future-model', 4096],
  ])('%s → %d', (model, expected) => {
    expect(defaultAnthropicMaxTokens(model)).toBe(expected);
  });

  it('is sent when the caller gives no max_tokens (Anthropic requires one)', () => {
    expect(convertForTest({ messages: [userMessage('Hi')] }, 'claude-3-5-haiku-20241022').request.max_tokens).toBe(8192);
  });
});
