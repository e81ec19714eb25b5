import { ChatCompletionSchema } from '@chat-relay/contract';
import { readFixture } from '../../testing/fixtures';
import { convertOpenAiResponse } from './convert-openai-response';

describe('convertOpenAiResponse', () => {
  const recorded = readFixture('openai/chat-completion-text.json');
  const recordedModel = (JSON.parse(recorded) as { model: string }).model;

  it('hands back the upstream text itself when the model name needs no change', () => {
    const converted = convertOpenAiResponse(recorded, recordedModel);
    expect(converted.ok && converted.text).toBe(recorded);
  });

  it('renames the model in the text, every other field as the upstream sent it', () => {
    const converted = convertOpenAiResponse(recorded, 'my-model');
    if (!converted.ok) throw new Error('expected a completion');
    const sent = JSON.parse(recorded) as Record<string, unknown>;
    const out = JSON.parse(converted.text ?? '') as Record<string, unknown>;
    expect(out).toEqual({ ...sent, model: 'my-model' });
    expect(Object.keys(out)).toEqual(Object.keys(sent));
    expect(converted.body).toEqual(out);
    expect(ChatCompletionSchema.safeParse(out).success).toBe(true);
  });

  it('reports the usage the upstream gave', () => {
    const converted = convertOpenAiResponse(recorded, 'm');
    const usage = (JSON.parse(recorded) as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
    expect(converted.ok && converted.usage).toEqual({ promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens });
  });

  it('reports the cached part of the prompt apart (prompt_tokens_details.cached_tokens)', () => {
    const sent = JSON.parse(recorded) as { usage: { prompt_tokens: number; completion_tokens: number } };
    const usage = { ...sent.usage, prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 } };
    const converted = convertOpenAiResponse(JSON.stringify({ ...sent, usage }), 'm');
    expect(converted.ok && converted.usage).toEqual({
      promptTokens: sent.usage.prompt_tokens,
      completionTokens: sent.usage.completion_tokens,
      cacheReadTokens: 1024,
    });
  });

  it.each([
    ['not JSON', '<html>'],
    ['an array', '[]'],
    ['no choices', '{"id":"x","model":"m"}'],
    ['usage without counts', '{"choices":[],"usage":{"total_tokens":1}}'],
    ['a model that is not a string', '{"choices":[],"model":5}'],
  ])('refuses %s as bad_response', (_case, text) => {
    const converted = convertOpenAiResponse(text, 'm');
    expect(!converted.ok && converted.error.code).toBe('bad_response');
  });
});
