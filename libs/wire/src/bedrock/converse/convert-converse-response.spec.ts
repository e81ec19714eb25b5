import { expectOpenAiValid } from '../../gemini/testing/expect-openai-valid';
import { convertConverseResponse } from './convert-converse-response';
import { readRecording, responseText } from './testing/converse-fixtures';

const convert = (text: string) => convertConverseResponse({ text, publicModel: 'my-model', created: 1700000000, id: 'chatcmpl-test' });

function convertValid(text: string) {
  const converted = convert(text);
  if (!converted.ok) throw converted.error;
  expectOpenAiValid('CreateChatCompletionResponse', converted.body);
  return converted;
}

const answer = (content: unknown[], stopReason: string, usage: Record<string, number> = { inputTokens: 10, outputTokens: 5 }) =>
  JSON.stringify({ output: { message: { role: 'assistant', content } }, stopReason, usage, metrics: { latencyMs: 100 } });

describe('convertConverseResponse on recorded Converse answers (test-fixtures/bedrock-converse, openinference)', () => {
  it('should-handle-meta-llama-models.json: Llama text, max_tokens → length, usage as reported', () => {
    const recording = readRecording('should-handle-meta-llama-models.json');
    const converted = convertValid(responseText(recording));
    expect(converted.body).toMatchObject({
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 1700000000,
      model: 'my-model',
      choices: [{ index: 0, message: { role: 'assistant', content: expect.stringContaining('I am LLaMA'), refusal: null }, finish_reason: 'length' }],
    });
    const usage = (recording.response as { usage: { inputTokens: number; outputTokens: number } }).usage;
    expect(converted.usage).toEqual({ promptTokens: usage.inputTokens, completionTokens: usage.outputTokens });
  });

  it('should-handle-tool-configuration.json: text then a toolUse, which becomes a tool call with its toolUseId', () => {
    const recording = readRecording('should-handle-tool-configuration.json');
    const converted = convertValid(responseText(recording));
    expect(converted.body['choices']).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: expect.stringContaining("I'll need to use the weather tool"),
          refusal: null,
          tool_calls: [{ id: 'tooluse_0ae1_ahYROawF4OObK5xBg', type: 'function', function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA"}' } }],
        },
        logprobs: null,
        finish_reason: 'length',
      },
    ]);
    expect(converted.usage).toEqual({ promptTokens: 408, completionTokens: 100 });
  });
});

describe('convertConverseResponse', () => {
  it('only tool calls: content null, tool_use → tool_calls', () => {
    const converted = convertValid(answer([{ toolUse: { toolUseId: 'tooluse_1', name: 'f', input: {} } }], 'tool_use'));
    expect(converted.body['choices']).toMatchObject([{ message: { content: null, tool_calls: [{ id: 'tooluse_1', function: { name: 'f', arguments: '{}' } }] }, finish_reason: 'tool_calls' }]);
  });

  it('reasoning: its text as reasoning_content, signed and redacted blocks as thinking_blocks', () => {
    const converted = convertValid(
      answer(
        [
          { reasoningContent: { reasoningText: { text: '6 * 7 = 42.', signature: 'sig-1' } } },
          { text: 'The answer is 42.' },
          { reasoningContent: { redactedContent: 'b3BhcXVl' } },
        ],
        'end_turn',
      ),
    );
    expect(converted.body['choices']).toMatchObject([
      {
        message: {
          content: 'The answer is 42.',
          reasoning_content: '6 * 7 = 42.',
          thinking_blocks: [
            { type: 'thinking', thinking: '6 * 7 = 42.', signature: 'sig-1' },
            { type: 'redacted_thinking', data: 'b3BhcXVl' },
          ],
        },
        finish_reason: 'stop',
      },
    ]);
  });

  it('unsigned reasoning (DeepSeek R1) is reasoning_content without thinking_blocks', () => {
    const converted = convertValid(answer([{ reasoningContent: { reasoningText: { text: 'Hmm.' } } }, { text: 'Yes.' }], 'end_turn'));
    const message = (converted.body['choices'] as Array<{ message: Record<string, unknown> }>)[0]?.message;
    expect(message).toMatchObject({ content: 'Yes.', reasoning_content: 'Hmm.' });
    expect(message).not.toHaveProperty('thinking_blocks');
  });

  it('cache reads and writes are part of the prompt, told apart (OpenAI counting)', () => {
    const converted = convertValid(answer([{ text: 'ok' }], 'end_turn', { inputTokens: 10, outputTokens: 3, totalTokens: 113, cacheReadInputTokens: 80, cacheWriteInputTokens: 20 }));
    expect(converted.usage).toEqual({ promptTokens: 110, completionTokens: 3, cacheReadTokens: 80, cacheWriteTokens: 20 });
    expect(converted.body['usage']).toEqual({ prompt_tokens: 110, completion_tokens: 3, total_tokens: 113, prompt_tokens_details: { cached_tokens: 80, cache_write_tokens: 20 } });
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['tool_use', 'tool_calls'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['guardrail_intervened', 'content_filter'],
    ['content_filtered', 'content_filter'],
  ])('stopReason %s → finish_reason %s', (stopReason, finishReason) => {
    expect(convertValid(answer([{ text: 'x' }], stopReason)).body['choices']).toMatchObject([{ finish_reason: finishReason }]);
  });

  it('malformed_tool_use is no answer: a 502 naming it', () => {
    const converted = convert(answer([], 'malformed_tool_use'));
    expect(converted.ok).toBe(false);
    if (!converted.ok) expect(converted.error).toMatchObject({ status: 502, code: 'malformed_tool_use' });
  });

  it('a body that is not a Converse answer is a bad_response', () => {
    expect(convert('{"output":{}}')).toMatchObject({ ok: false, error: { status: 502, code: 'bad_response' } });
    expect(convert('<html>')).toMatchObject({ ok: false, error: { code: 'bad_response' } });
  });
});
