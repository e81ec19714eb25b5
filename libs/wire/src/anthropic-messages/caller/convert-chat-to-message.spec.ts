import { AnthropicMessageSchema, ChatCompletionSchema, type ChatCompletion } from '@chat-relay/contract';
import { geminiAdapter } from '../../gemini';
import { openAiAdapter } from '../../openai-chat/upstream/openai-adapter';
import { BRIDGED_THINKING_SIGNATURE } from './bridged-thinking-signature';
import { convertChatToMessage } from './convert-chat-to-message';
import { readFixture } from '../testing/anthropic-fixtures';
import { toMessageId } from './to-message-id';

type Message = Record<string, unknown>;

function completion(message: Message, finishReason: string | null = 'stop', usage?: Record<string, unknown>): ChatCompletion {
  return ChatCompletionSchema.parse({
    id: 'chatcmpl-abc123',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-x',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finishReason ?? 'stop' }],
    ...(usage ? { usage } : {}),
  });
}

/** Converts, and checks the Message is one the contract's (Anthropic's) schema accepts. */
function bridged(chat: ChatCompletion) {
  const message = convertChatToMessage({ completion: chat, publicModel: 'claude-bridged' });
  expect(AnthropicMessageSchema.parse(message)).toEqual(message);
  return message;
}

const call = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } });

describe('convertChatToMessage', () => {
  it('text → one text block; id msg_ + the completion id suffix; the caller’s model; usage split as Anthropic counts it', () => {
    const message = bridged(
      completion({ content: 'Hello!' }, 'stop', {
        prompt_tokens: 120,
        completion_tokens: 7,
        total_tokens: 127,
        prompt_tokens_details: { cached_tokens: 100 },
      }),
    );
    expect(message).toEqual({
      id: 'msg_abc123',
      type: 'message',
      role: 'assistant',
      model: 'claude-bridged',
      content: [{ type: 'text', text: 'Hello!' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 7, cache_read_input_tokens: 100, cache_creation_input_tokens: 0 },
    });
  });

  it('cache writes a server reports (cache_write_tokens) are cache_creation_input_tokens; no usage reads as zeros', () => {
    const written = bridged(
      completion({ content: 'x' }, 'stop', {
        prompt_tokens: 50,
        completion_tokens: 1,
        total_tokens: 51,
        prompt_tokens_details: { cached_tokens: 10, cache_write_tokens: 30 },
      }),
    );
    expect(written.usage).toEqual({ input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 10, cache_creation_input_tokens: 30 });
    expect(bridged(completion({ content: 'x' })).usage).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
  });

  it('never an empty text block: empty or null content gives no block at all', () => {
    expect(bridged(completion({ content: '' })).content).toEqual([]);
    expect(bridged(completion({ content: null })).content).toEqual([]);
  });

  it('reasoning_content (DeepSeek, vLLM) or reasoning (OpenRouter) → a bridged-signed thinking block first', () => {
    const expected = [
      { type: 'thinking', thinking: 'Think.', signature: BRIDGED_THINKING_SIGNATURE },
      { type: 'text', text: 'Answer.' },
    ];
    expect(bridged(completion({ content: 'Answer.', reasoning_content: 'Think.' })).content).toEqual(expected);
    expect(bridged(completion({ content: 'Answer.', reasoning: 'Think.' })).content).toEqual(expected);
    // Servers that send both carry the same text twice: one block.
    expect(bridged(completion({ content: 'Answer.', reasoning_content: 'Think.', reasoning: 'Think.' })).content).toEqual(expected);
    expect(bridged(completion({ content: 'Answer.', reasoning_content: '' })).content).toEqual([{ type: 'text', text: 'Answer.' }]);
  });

  it('tool calls → tool_use blocks in order with their ids and parsed input; stop reason tool_use', () => {
    const message = bridged(
      completion(
        { content: 'Checking both.', tool_calls: [call('call_1', 'weather', '{"city":"Paris"}'), call('call_2', 'time', '{}')] },
        'tool_calls',
      ),
    );
    expect(message.content).toEqual([
      { type: 'text', text: 'Checking both.' },
      { type: 'tool_use', id: 'call_1', name: 'weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'call_2', name: 'time', input: {} },
    ]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it.each([
    ['empty', ''],
    ['cut off', '{"city":"Par'],
    ['not an object', '["Paris"]'],
  ])('%s arguments become input {} (a Message cannot carry them)', (_name, args) => {
    expect(bridged(completion({ tool_calls: [call('call_1', 'weather', args)] }, 'tool_calls')).content).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'weather', input: {} },
    ]);
  });

  it('a call that came without an id gets one (Anthropic requires it)', () => {
    expect(bridged(completion({ tool_calls: [call('', 'weather', '{}')] }, 'tool_calls')).content).toEqual([
      { type: 'tool_use', id: 'toolu_bridged_0', name: 'weather', input: {} },
    ]);
  });

  it('a refusal is text the caller sees, with stop reason refusal for content_filter', () => {
    const message = bridged(completion({ refusal: "I can't help with that." }, 'content_filter'));
    expect(message.content).toEqual([{ type: 'text', text: "I can't help with that." }]);
    expect(message.stop_reason).toBe('refusal');
  });

  it.each([
    ['stop', false, 'end_turn'],
    ['length', false, 'max_tokens'],
    ['length', true, 'max_tokens'],
    ['tool_calls', true, 'tool_use'],
    ['function_call', false, 'tool_use'],
    ['content_filter', false, 'refusal'],
    // Servers that say `stop` (or something unknown) after calling tools.
    ['stop', true, 'tool_use'],
  ])('finish_reason %s (tool calls: %s) → stop_reason %s', (finishReason, withCalls, stopReason) => {
    const message = withCalls ? { tool_calls: [call('call_1', 'f', '{}')] } : { content: 'x' };
    expect(bridged(completion(message, finishReason)).stop_reason).toBe(stopReason);
  });

  it('an answer without choices is an empty end_turn message', () => {
    const empty = ChatCompletionSchema.parse({ id: 'chatcmpl-e', object: 'chat.completion', created: 1, model: 'm', choices: [] });
    expect(bridged(empty)).toMatchObject({ content: [], stop_reason: 'end_turn' });
  });
});

describe('convertChatToMessage on recorded answers, through the upstream adapters', () => {
  it('openai/chat-completion-text.json: the text, and usage with the prompt split', () => {
    const text = readFixture('openai/chat-completion-text.json');
    const recorded = JSON.parse(text);
    const converted = openAiAdapter.convertResponse(text, 'claude-bridged');
    if (!converted.ok) throw converted.error;
    const message = bridged(ChatCompletionSchema.parse(converted.body));
    const cached = recorded.usage.prompt_tokens_details.cached_tokens;
    expect(message).toMatchObject({
      id: toMessageId(recorded.id),
      content: [{ type: 'text', text: recorded.choices[0].message.content }],
      stop_reason: 'end_turn',
      usage: { input_tokens: recorded.usage.prompt_tokens - cached, output_tokens: recorded.usage.completion_tokens, cache_read_input_tokens: cached },
    });
    expect(message.id).toBe(`msg_${recorded.id.slice('chatcmpl-'.length)}`);
  });

  it('gemini/generate-content-tool-call.json: a function call becomes a tool_use with its args as input', () => {
    const converted = geminiAdapter.convertResponse(readFixture('gemini/generate-content-tool-call.json'), 'claude-bridged');
    if (!converted.ok) throw converted.error;
    const chat = ChatCompletionSchema.parse(converted.body);
    const message = bridged(chat);
    const [hubCall] = chat.choices[0]?.message.tool_calls ?? [];
    expect(message.content).toEqual([
      { type: 'tool_use', id: hubCall?.id, name: 'weather', input: { location: 'San Francisco' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    // Gemini bills thinking as output, and so does the hub: 15 + 893.
    expect(message.usage).toMatchObject({ input_tokens: 29, output_tokens: 908 });
  });
});

describe('toMessageId', () => {
  it.each([
    ['chatcmpl-abc', 'msg_abc'],
    ['gen-1753-xyz', 'msg_1753-xyz'],
    ['m36LaZGyCLz1', 'msg_m36LaZGyCLz1'],
    ['chatcmpl-', 'msg_chatcmpl-'],
    ['', 'msg_bridged'],
  ])('%s → %s', (id, expected) => {
    expect(toMessageId(id)).toBe(expected);
  });
});
