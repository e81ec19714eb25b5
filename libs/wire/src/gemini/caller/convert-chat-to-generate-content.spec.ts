import { GeminiGenerateContentResponseSchema, type ChatCompletion } from '@chat-relay/contract';
import { convertChatUsageToGemini, mapFinishReasonToGemini } from './convert-chat-to-gemini-parts';
import { convertChatToGenerateContent } from './convert-chat-to-generate-content';

const completion = (message: Record<string, unknown>, finishReason: string | null = 'stop', extra: Record<string, unknown> = {}): ChatCompletion =>
  ({
    id: 'chatcmpl-abc',
    object: 'chat.completion',
    created: 1,
    model: 'upstream-model',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, logprobs: null, finish_reason: finishReason }],
    usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 },
    ...extra,
  }) as ChatCompletion;

const convert = (chat: ChatCompletion, includeThoughts = false) => {
  const answer = convertChatToGenerateContent({ completion: chat, publicModel: 'my-gemini', includeThoughts });
  // Whatever it built is a GenerateContentResponse by the contract.
  expect(GeminiGenerateContentResponseSchema.safeParse(answer).success).toBe(true);
  return answer;
};

describe('convertChatToGenerateContent', () => {
  it('a text answer: one candidate, a text part, STOP, usage, the caller’s model and the hub’s id', () => {
    expect(convert(completion({ content: 'Hello!' }))).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hello!' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 9, totalTokenCount: 29 },
      modelVersion: 'my-gemini',
      responseId: 'abc',
    });
  });

  it('tool calls: functionCall parts with the call id and parsed args after the text, STOP (Gemini’s end of a call turn)', () => {
    const answer = convert(
      completion(
        {
          content: 'Looking',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: 'not json' } },
          ],
        },
        'tool_calls',
      ),
    );
    expect(answer.candidates?.[0]).toEqual({
      content: {
        role: 'model',
        parts: [
          { text: 'Looking' },
          { functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Paris' } } },
          { functionCall: { id: 'call_2', name: 'get_time', args: {} } },
        ],
      },
      finishReason: 'STOP',
      index: 0,
    });
  });

  it('reasoning text becomes a leading thought part only when thoughts were asked for; a refusal is text', () => {
    const chat = completion({ content: 'Yes', reasoning_content: 'thinking…', refusal: 'but no' });
    expect(convert(chat, true).candidates?.[0]?.content?.parts).toEqual([{ text: 'thinking…', thought: true }, { text: 'Yes' }, { text: 'but no' }]);
    expect(convert(chat, false).candidates?.[0]?.content?.parts).toEqual([{ text: 'Yes' }, { text: 'but no' }]);
  });

  it('an empty answer keeps an empty parts list; several choices are several candidates', () => {
    const chat = completion({ content: '' }, 'length');
    chat.choices.push({ index: 1, message: { role: 'assistant', content: 'B', refusal: null }, logprobs: null, finish_reason: 'stop' } as ChatCompletion['choices'][number]);
    expect(convert(chat).candidates).toEqual([
      { content: { role: 'model', parts: [] }, finishReason: 'MAX_TOKENS', index: 0 },
      { content: { role: 'model', parts: [{ text: 'B' }] }, finishReason: 'STOP', index: 1 },
    ]);
  });
});

describe('mapFinishReasonToGemini', () => {
  it.each([
    ['stop', 'STOP'],
    ['tool_calls', 'STOP'],
    ['function_call', 'STOP'],
    ['length', 'MAX_TOKENS'],
    ['content_filter', 'SAFETY'],
    [null, 'STOP'],
    ['something_new', 'STOP'],
  ])('%s → %s', (reason, gemini) => {
    expect(mapFinishReasonToGemini(reason)).toBe(gemini);
  });
});

describe('convertChatUsageToGemini', () => {
  it('reasoning tokens are thoughts, apart from the candidates; cached tokens stay inside the prompt count', () => {
    expect(
      convertChatUsageToGemini({
        prompt_tokens: 100,
        completion_tokens: 50,
        total_tokens: 150,
        prompt_tokens_details: { cached_tokens: 40 },
        completion_tokens_details: { reasoning_tokens: 30 },
      }),
    ).toEqual({ promptTokenCount: 100, candidatesTokenCount: 20, thoughtsTokenCount: 30, cachedContentTokenCount: 40, totalTokenCount: 150 });
  });

  it('no usage reads as zero counts', () => {
    expect(convertChatUsageToGemini(undefined)).toEqual({ promptTokenCount: 0, candidatesTokenCount: 0, totalTokenCount: 0 });
  });
});
