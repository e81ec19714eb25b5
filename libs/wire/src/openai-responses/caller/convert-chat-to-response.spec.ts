import { ChatCompletionSchema, ResponseObjectSchema } from '@chat-relay/contract';
import { expectOpenAiValid } from '../../gemini/testing/expect-openai-valid';
import { readFixture } from '../../testing/fixtures';
import { convertChatToResponse, responseUsageFromChat } from './convert-chat-to-response';
import { CREATED_AT, PUBLIC_MODEL, RESPONSE_ID, sequentialIds } from '../testing/responses-identity';
import { responsesRequest } from '../testing/bridge-responses-request';

type Message = Record<string, unknown>;
const completion = (message: Message, finishReason = 'stop', extra: Record<string, unknown> = {}) =>
  ChatCompletionSchema.parse({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'upstream-model',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finishReason }],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, prompt_tokens_details: { cached_tokens: 30 }, completion_tokens_details: { reasoning_tokens: 5 } },
    ...extra,
  });

function convert(chat: ReturnType<typeof completion>, fields: Record<string, unknown> = {}) {
  const response = convertChatToResponse({
    completion: chat,
    request: responsesRequest(fields),
    responseId: RESPONSE_ID,
    createdAt: CREATED_AT,
    publicModel: PUBLIC_MODEL,
    newId: sequentialIds(),
  });
  expectOpenAiValid('Response', response);
  expect(ResponseObjectSchema.safeParse(response).error?.issues ?? []).toEqual([]);
  return response;
}

describe('convertChatToResponse', () => {
  it('the recorded OpenAI completion → a completed Response with one message item, usage and OpenAI’s echoed defaults', () => {
    const recorded = ChatCompletionSchema.parse(JSON.parse(readFixture('openai/chat-completion-text.json')));
    const response = convert(recorded);
    expect(response).toEqual({
      id: RESPONSE_ID,
      object: 'response',
      created_at: CREATED_AT,
      status: 'completed',
      background: false,
      error: null,
      incomplete_details: null,
      instructions: null,
      max_output_tokens: null,
      model: PUBLIC_MODEL,
      output: [
        {
          type: 'message',
          id: 'msg_1',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: recorded.choices[0]?.message.content, annotations: [], logprobs: [] }],
        },
      ],
      parallel_tool_calls: true,
      previous_response_id: null,
      reasoning: { effort: null, summary: null },
      store: true,
      temperature: 1,
      text: { format: { type: 'text' } },
      tool_choice: 'auto',
      tools: [],
      top_p: 1,
      truncation: 'disabled',
      usage: {
        input_tokens: 16,
        input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
        output_tokens: 363,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 379,
      },
      metadata: {},
    });
  });

  it('reasoning, text and tool calls of one turn are all kept, in that order, each call with its hub id as call_id', () => {
    const response = convert(
      completion(
        {
          reasoning_content: 'Need both cities.',
          content: 'Checking.',
          tool_calls: [
            { id: 'call_p', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_r', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
          ],
        },
        'tool_calls',
      ),
    );
    expect(response.output).toEqual([
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Need both cities.' }] },
      { type: 'message', id: 'msg_2', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.', annotations: [], logprobs: [] }] },
      { type: 'function_call', id: 'fc_3', call_id: 'call_p', name: 'weather', arguments: '{"city":"Paris"}', status: 'completed' },
      { type: 'function_call', id: 'fc_4', call_id: 'call_r', name: 'weather', arguments: '{"city":"Rome"}', status: 'completed' },
    ]);
    expect(response.status).toBe('completed');
  });

  it('OpenRouter-style `reasoning` is reasoning too; calls alone make no message item', () => {
    const response = convert(completion({ reasoning: 'Hmm.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, 'tool_calls'));
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
  });

  it('a refusal is a refusal part of the message', () => {
    const response = convert(completion({ refusal: 'I cannot help with that.' }));
    expect(response.output).toEqual([
      { type: 'message', id: 'msg_1', status: 'completed', role: 'assistant', content: [{ type: 'refusal', refusal: 'I cannot help with that.' }] },
    ]);
  });

  it.each([
    ['length', 'max_output_tokens'],
    ['content_filter', 'content_filter'],
  ])('finish_reason %s → incomplete, reason %s', (finishReason, reason) => {
    const response = convert(completion({ content: 'Cut' }, finishReason));
    expect([response.status, response.incomplete_details]).toEqual(['incomplete', { reason }]);
  });

  it('usage: input with cached tokens, output with reasoning tokens, total as reported', () => {
    expect(convert(completion({ content: 'x' })).usage).toEqual({
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 30, cache_write_tokens: 0 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 5 },
      total_tokens: 120,
    });
    expect(responseUsageFromChat({ prompt_tokens: 7, completion_tokens: 3 })).toEqual({
      input_tokens: 7,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 3,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 10,
    });
  });

  it('the choice’s logprobs become the output_text logprobs', () => {
    const logprobs = { content: [{ token: 'Hi', logprob: -0.1, bytes: [72, 105], top_logprobs: [{ token: 'Hi', logprob: -0.1, bytes: null }] }], refusal: null };
    const chat = completion({ content: 'Hi' }, 'stop');
    const withLogprobs = ChatCompletionSchema.parse({ ...chat, choices: [{ ...chat.choices[0], logprobs }] });
    const [message] = convert(withLogprobs, { top_logprobs: 1 }).output;
    expect(message).toMatchObject({ content: [{ logprobs: [{ token: 'Hi', logprob: -0.1, bytes: [72, 105], top_logprobs: [{ token: 'Hi', logprob: -0.1, bytes: [] }] }] }] });
  });

  it('echoes the request’s settings: instructions, tools (parameters and strict as the schema wants), choices, text, reasoning, metadata, user', () => {
    const response = convert(completion({ content: 'x' }), {
      instructions: 'Be brief.',
      tools: [{ type: 'function', name: 'f', description: 'F.' }],
      tool_choice: 'required',
      parallel_tool_calls: false,
      temperature: 0.5,
      top_p: 0.8,
      max_output_tokens: 50,
      previous_response_id: 'resp_0',
      reasoning: { effort: 'low' },
      text: { verbosity: 'low' },
      store: false,
      metadata: { k: 'v' },
      user: 'u-1',
    });
    expect(response).toMatchObject({
      instructions: 'Be brief.',
      tools: [{ type: 'function', name: 'f', description: 'F.', parameters: null, strict: null }],
      tool_choice: 'required',
      parallel_tool_calls: false,
      temperature: 0.5,
      top_p: 0.8,
      max_output_tokens: 50,
      previous_response_id: 'resp_0',
      reasoning: { effort: 'low', summary: null },
      text: { verbosity: 'low', format: { type: 'text' } },
      store: false,
      metadata: { k: 'v' },
      user: 'u-1',
    });
  });

  it('codex_tool_calls_restored: a namespaced call gets its name and namespace back; a custom tool’s call (custom, or its one-string function) is a custom_tool_call', () => {
    const fields = {
      tools: [
        { type: 'namespace', name: 'clock', description: 'Time.', tools: [{ type: 'function', name: 'sleep', parameters: { type: 'object' } }] },
        { type: 'namespace', name: 'functions', description: '', tools: [{ type: 'custom', name: 'exec' }] },
        { type: 'custom', name: 'apply_patch' },
      ],
    };
    const response = convert(
      completion(
        {
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'clock__sleep', arguments: '{}' } },
            { id: 'call_2', type: 'function', function: { name: 'functions__exec', arguments: '{"input":"text(1)"}' } },
            { id: 'call_3', type: 'custom', custom: { name: 'apply_patch', input: '*** Begin Patch' } },
          ],
        },
        'tool_calls',
      ),
      fields,
    );
    expect(response.output).toEqual([
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', namespace: 'clock', name: 'sleep', arguments: '{}', status: 'completed' },
      { type: 'custom_tool_call', id: 'ctc_2', call_id: 'call_2', namespace: 'functions', name: 'exec', input: 'text(1)', status: 'completed' },
      { type: 'custom_tool_call', id: 'ctc_3', call_id: 'call_3', name: 'apply_patch', input: '*** Begin Patch', status: 'completed' },
    ]);
  });

  it('a hub tool call without an id still gets a call_id (Responses requires one)', () => {
    const response = convert(completion({ tool_calls: [{ id: '', type: 'function', function: { name: 'f', arguments: '{}' } }] }, 'tool_calls'));
    expect(response.output[0]).toMatchObject({ id: 'fc_1', call_id: 'call_fc_1' });
  });

  it('no usage from the upstream: the Response has none rather than zeros', () => {
    const chat = completion({ content: 'x' });
    delete chat.usage;
    expect(convert(chat)).not.toHaveProperty('usage');
  });
});
