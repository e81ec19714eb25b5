import { mergeAnthropicUsage } from './merge-anthropic-usage';

const start = { input_tokens: 120, output_tokens: 1, cache_creation_input_tokens: 30, cache_read_input_tokens: 400 };

describe('mergeAnthropicUsage', () => {
  it('takes the cumulative output count of the delta and the input side of message_start', () => {
    expect(mergeAnthropicUsage(start, { output_tokens: 57 })).toEqual({ ...start, output_tokens: 57 });
  });

  it('takes every count the delta repeats over the earlier one (newer API versions)', () => {
    const delta = { input_tokens: 121, output_tokens: 80, cache_creation_input_tokens: 0, cache_read_input_tokens: 430 };
    expect(mergeAnthropicUsage(start, delta)).toEqual(delta);
  });

  it('treats a null count in the delta as not sent', () => {
    const delta = { input_tokens: null, output_tokens: 9, cache_creation_input_tokens: null, cache_read_input_tokens: null };
    expect(mergeAnthropicUsage(start, delta)).toEqual({ ...start, output_tokens: 9 });
  });

  it('gives null cache counts when neither side has them', () => {
    expect(mergeAnthropicUsage({ input_tokens: 5, output_tokens: 1 }, { output_tokens: 2 })).toEqual({
      input_tokens: 5,
      output_tokens: 2,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
    });
  });

  it('completes usage from the delta alone when message_start had none', () => {
    expect(mergeAnthropicUsage(undefined, { input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 2 })).toEqual({
      input_tokens: 7,
      output_tokens: 3,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: 2,
    });
  });

  it('is undefined while either side is unknown', () => {
    expect(mergeAnthropicUsage(undefined, { output_tokens: 3 })).toBeUndefined();
    expect(mergeAnthropicUsage(undefined, { input_tokens: 3 })).toBeUndefined();
    expect(mergeAnthropicUsage(undefined, { input_tokens: 3, output_tokens: null })).toBeUndefined();
  });

  it('keeps zero counts rather than falling back to the earlier ones', () => {
    expect(mergeAnthropicUsage(start, { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0 })).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 30,
      cache_read_input_tokens: 0,
    });
  });
});
