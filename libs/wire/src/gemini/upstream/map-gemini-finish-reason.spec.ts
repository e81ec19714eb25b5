import { GEMINI_FINISH_REASONS, mapGeminiFinishReason } from './map-gemini-finish-reason';

describe('mapGeminiFinishReason', () => {
  it.each([
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool_calls'],
    ['MAX_TOKENS', false, 'length'],
    ['MAX_TOKENS', true, 'length'],
    ['SAFETY', false, 'content_filter'],
    ['RECITATION', false, 'content_filter'],
    ['BLOCKLIST', false, 'content_filter'],
    ['PROHIBITED_CONTENT', false, 'content_filter'],
    ['SPII', false, 'content_filter'],
    ['LANGUAGE', false, 'content_filter'],
    ['IMAGE_SAFETY', false, 'content_filter'],
    ['OTHER', false, 'stop'],
    ['FINISH_REASON_UNSPECIFIED', true, 'tool_calls'],
    ['A_REASON_FROM_THE_FUTURE', false, 'stop'],
    ['A_REASON_FROM_THE_FUTURE', true, 'tool_calls'],
  ])('%s (tool calls: %s) → %s', (reason, hasToolCalls, finishReason) => {
    expect(mapGeminiFinishReason(reason, hasToolCalls)).toEqual({ kind: 'finish', finishReason });
  });

  it.each(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS', 'MISSING_THOUGHT_SIGNATURE', 'MALFORMED_RESPONSE'])(
    '%s is a failure, not a finish',
    (reason) => {
      expect(mapGeminiFinishReason(reason, false)).toEqual({ kind: 'failed', reason });
    },
  );

  it('maps every known reason without throwing', () => {
    for (const reason of GEMINI_FINISH_REASONS) expect(() => mapGeminiFinishReason(reason, false)).not.toThrow();
  });
});
