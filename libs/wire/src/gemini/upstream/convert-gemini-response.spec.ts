import { readFixture } from '../../testing/fixtures';
import { convertGeminiResponse } from './convert-gemini-response';
import { expectOpenAiValid, idWithSignature } from '../testing/expect-openai-valid';
import { readGeminiCassette, TEST_CREATED } from '../testing/gemini-fixtures';

const convert = (text: string) => convertGeminiResponse({ text, publicModel: 'my-gemini', created: TEST_CREATED });

/** Converts, checks the body against the official OpenAI spec, and returns it. */
function convertValid(text: string) {
  const converted = convert(text);
  if (!converted.ok) throw converted.error;
  expectOpenAiValid('CreateChatCompletionResponse', converted.body);
  return converted;
}

const envelope = (id: string) => ({ id, object: 'chat.completion', created: TEST_CREATED, model: 'my-gemini' });
const usage = (prompt: number, completion: number, reasoning: number, cached = 0) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  prompt_tokens_details: { cached_tokens: cached },
  completion_tokens_details: { reasoning_tokens: reasoning },
});
const message = (content: string | null, toolCalls?: unknown[]) => ({
  role: 'assistant',
  content,
  refusal: null,
  ...(toolCalls ? { tool_calls: toolCalls } : {}),
});
const call = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } });

describe('convertGeminiResponse on recorded Gemini answers', () => {
  it('generate-content-text.json: text, STOP → stop, thinking counted in completion', () => {
    const converted = convertValid(readFixture('gemini/generate-content-text.json'));
    expect(converted.body).toEqual({
      ...envelope('chatcmpl-Un6LacrVMcjUxs0PmJfWoQc'),
      choices: [
        {
          index: 0,
          message: message("There are **3** r's in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y."),
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: usage(9, 28 + 244, 244),
    });
    expect(converted.usage).toEqual({ promptTokens: 9, completionTokens: 272 });
    expect(converted.deliveredChars).toBe(78);
  });

  it('generate-content-tool-call.json: a function call ending with STOP → tool_calls, content null', () => {
    const text = readFixture('gemini/generate-content-tool-call.json');
    const signature = JSON.parse(text).candidates[0].content.parts[0].thoughtSignature;
    expect(convertValid(text).body).toEqual({
      ...envelope('chatcmpl-m36LaZGyCLz1xs0PtNSB-QU'),
      choices: [
        {
          index: 0,
          message: message(null, [
            call(idWithSignature('call_d4e1aa18cd02165be737c60c', signature), 'weather', '{"location":"San Francisco"}'),
          ]),
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: usage(29, 15 + 893, 893),
    });
  });

  it('cassette-finish-max-tokens.yaml: MAX_TOKENS → length', () => {
    const [interaction] = readGeminiCassette('cassette-finish-max-tokens.yaml');
    expect(convertValid(JSON.stringify(interaction?.responseJson)).body).toEqual({
      ...envelope('chatcmpl-R5MoavWNNp_8qtsP2fWD2A0'),
      choices: [{ index: 0, message: message('The capital of France is'), logprobs: null, finish_reason: 'length' }],
      usage: usage(15, 5, 0),
    });
  });

  it('cassette-finish-safety.yaml: SAFETY with no parts → content_filter, content null, no completion tokens', () => {
    const [interaction] = readGeminiCassette('cassette-finish-safety.yaml');
    expect(convertValid(JSON.stringify(interaction?.responseJson)).body).toEqual({
      ...envelope('chatcmpl-5lpeaLOIBf__698Pv8HGgAg'),
      choices: [{ index: 0, message: message(null), logprobs: null, finish_reason: 'content_filter' }],
      usage: usage(14, 0, 0),
    });
  });

  it('cassette-parallel-function-calls.yaml: three parallel calls, the signature only on the first', () => {
    const [first] = readGeminiCassette('cassette-parallel-function-calls.yaml');
    const json = first?.responseJson as { candidates: Array<{ content: { parts: Array<{ thoughtSignature?: string }> } }> };
    const signature = json.candidates[0]?.content.parts[0]?.thoughtSignature ?? '';
    expect(convertValid(JSON.stringify(json)).body).toEqual({
      ...envelope('chatcmpl-wOd8abGuO5rgz7IP5tLEGA'),
      choices: [
        {
          index: 0,
          message: message(null, [
            call(idWithSignature('call_bc6f4bb12d65d88918f2018a', signature), 'generate_topic', '{}'),
            call('call_b0fa8317aa57efa0483413a9', 'generate_topic', '{}'),
            call('call_4857c79bdb54f9e19106a016', 'generate_topic', '{}'),
          ]),
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: usage(83, 30 + 190, 190),
    });
  });

  it('cassette-parallel-function-calls.yaml: every later answer converts and validates', () => {
    const answers = readGeminiCassette('cassette-parallel-function-calls.yaml').slice(1);
    const names = answers.map((interaction) => {
      const body = convertValid(JSON.stringify(interaction.responseJson)).body as { choices: any[] };
      return body.choices[0].message.tool_calls.map((toolCall: any) => toolCall.function.name);
    });
    expect(names).toEqual([['generate_topic'], ['generate_topic'], ['generate_topic'], ['final_result']]);
  });

  it('cassette-tool-config-any.yaml: a no-argument call gets "{}", never ""', () => {
    const [first, second] = readGeminiCassette('cassette-tool-config-any.yaml');
    expect(convertValid(JSON.stringify(first?.responseJson)).body).toEqual({
      ...envelope('chatcmpl-LFteaOOfMaPG1PIPi5qVEA'),
      choices: [
        {
          index: 0,
          message: message(null, [call('call_dcba14f5201fe4b60ffbd42d', 'bar', '{}')]),
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: usage(21, 1, 0),
    });
    const body = convertValid(JSON.stringify(second?.responseJson)).body as { choices: any[] };
    expect(body.choices[0].message.tool_calls).toEqual([
      call('call_fc9a4580f8ee027dbd764a44', 'final_result', '{"bar":"hello"}'),
    ]);
  });
});

describe('convertGeminiResponse on other answers', () => {
  it('gives the same ids to the same answer (stable ids)', () => {
    const text = readFixture('gemini/generate-content-tool-call.json');
    expect(convert(text)).toEqual(convert(text));
  });

  it('makes a prompt blocked before any candidate one content_filter choice', () => {
    const text = JSON.stringify({
      promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
      usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 },
      responseId: 'blocked-1',
    });
    expect(convertValid(text).body).toEqual({
      ...envelope('chatcmpl-blocked-1'),
      choices: [{ index: 0, message: message(null), logprobs: null, finish_reason: 'content_filter' }],
      usage: usage(7, 0, 0),
    });
  });

  it('keeps one choice per candidate (n > 1), thought summaries as reasoning_content apart from the text, and counts cached tokens', () => {
    const text = JSON.stringify({
      candidates: [
        { index: 0, content: { parts: [{ text: 'thinking…', thought: true }, { text: 'A' }] }, finishReason: 'STOP' },
        { index: 1, content: { parts: [{ text: 'B' }, { text: 'C' }] }, finishReason: 'MAX_TOKENS' },
      ],
      usageMetadata: { promptTokenCount: 10, cachedContentTokenCount: 4, candidatesTokenCount: 3 },
      responseId: 'two',
    });
    const converted = convertValid(text);
    expect(converted.usage).toEqual({ promptTokens: 10, completionTokens: 3, cacheReadTokens: 4 });
    expect(converted.body).toEqual({
      ...envelope('chatcmpl-two'),
      choices: [
        { index: 0, message: { ...message('A'), reasoning_content: 'thinking…' }, logprobs: null, finish_reason: 'stop' },
        { index: 1, message: message('BC'), logprobs: null, finish_reason: 'length' },
      ],
      usage: usage(10, 3, 0, 4),
    });
  });

  it('leaves usage out (and counts delivered characters) when Gemini reports none', () => {
    const converted = convertValid(JSON.stringify({ candidates: [{ content: { parts: [{ text: 'hey' }] }, finishReason: 'STOP' }] }));
    expect(converted.usage).toBeUndefined();
    expect(converted.body).not.toHaveProperty('usage');
    expect(converted.deliveredChars).toBe(3);
  });

  it('makes a malformed function call an upstream error, not an empty answer', () => {
    const converted = convert(
      JSON.stringify({
        candidates: [{ content: {}, finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage: 'Malformed function call: x' }],
      }),
    );
    expect(converted.ok).toBe(false);
    if (converted.ok) return;
    expect(converted.error.status).toBe(502);
    expect(converted.error.toBody().error).toMatchObject({ type: 'upstream_error', code: 'MALFORMED_FUNCTION_CALL' });
    expect(converted.error.message).toContain('Malformed function call: x');
  });

  it.each([
    ['not JSON', '<html>'],
    ['not a response', '{"candidates": "many"}'],
    ['no candidates and no block reason', '{"usageMetadata": {}}'],
  ])('reports %s as bad_response', (_name, text) => {
    const converted = convert(text);
    expect(!converted.ok && converted.error.code).toBe('bad_response');
  });
});
