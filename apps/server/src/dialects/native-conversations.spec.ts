import { AnthropicMessagesRequestSchema, GeminiGenerateContentRequestSchema, type ChatCompletionRequest } from '@chat-relay/contract';
import { convertGenerateContentToChat, convertMessagesToChat } from '@chat-relay/wire';
import { conversationLetGo, letGoOfConversation, type NativeConversation } from '../pipeline/let-go-of-conversation';
import { geminiConversation } from './gemini/gemini-conversation';
import { messagesConversation } from './messages/messages-conversation';

interface DialectCase {
  name: string;
  field: string;
  /** A coding agent's turn: a system prompt, a tool call and its result. */
  text: string;
  conversation: NativeConversation;
  /** The body as the route validates it, and the hub's request as the route converts it. */
  validate(parsed: unknown): Record<string, unknown>;
  toHub(body: Record<string, unknown>): ChatCompletionRequest;
}

const gemini = { model: 'gemini-2.5-flash', stream: false };

const cases: DialectCase[] = [
  {
    name: "Anthropic's Messages",
    field: 'messages',
    text: JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 512,
      system: [{ type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: 'Read the file \u00e9\u{1f600}' },
        { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.ts' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'export const a = 1;' }] },
      ],
      tools: [{ name: 'read', description: 'Reads a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
    }),
    conversation: messagesConversation,
    validate: (parsed) => AnthropicMessagesRequestSchema.parse(parsed),
    toHub: (body) => convertMessagesToChat(AnthropicMessagesRequestSchema.parse(body)).request,
  },
  {
    name: "Gemini's generateContent",
    field: 'contents',
    // Proto JSON: the system instruction in snake_case, the parts in camelCase, as Gemini reads both.
    text: JSON.stringify({
      system_instruction: { parts: [{ text: 'You are a coding agent.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Read the file \u00e9\u{1f600}' }] },
        { role: 'model', parts: [{ functionCall: { name: 'read', args: { path: 'a.ts' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'read', response: { content: 'export const a = 1;' } } }] },
      ],
      tools: [{ functionDeclarations: [{ name: 'read', description: 'Reads a file', parameters: { type: 'OBJECT', properties: { path: { type: 'STRING' } } } }] }],
    }),
    conversation: geminiConversation(gemini),
    validate: (parsed) => GeminiGenerateContentRequestSchema.parse(parsed),
    toHub: (body) => convertGenerateContentToChat({ body: GeminiGenerateContentRequestSchema.parse(body), ...gemini }).request,
  },
];

describe.each(cases)('the conversation of $name, let go of while an answer is awaited', (dialect) => {
  /** The three forms a request is held in while its answer is awaited. */
  function heldThrice() {
    const rawBody = Buffer.from(dialect.text);
    const parsedBody = JSON.parse(dialect.text) as Record<string, unknown>;
    const body = dialect.validate(parsedBody);
    return { rawBody, parsedBody, body, hub: dialect.toHub(body) };
  }

  it('lets go of the body as parsed, as validated and as converted to the hub, and reads each back as it was', () => {
    const { rawBody, parsedBody, body, hub } = heldThrice();
    const expected = [parsedBody, body, hub].map((held) => JSON.stringify(held));
    const hubBefore = hub.messages;
    letGoOfConversation({ hub: [hub], parsedBody, native: { body, conversation: dialect.conversation } }, rawBody);
    expect([conversationLetGo(parsedBody, dialect.field), conversationLetGo(body, dialect.field), conversationLetGo(hub)]).toEqual([true, true, true]);
    expect([parsedBody, body, hub].map((held) => JSON.stringify(held))).toEqual(expected);
    // The hub's conversation converted again: the system prompt first, the tool call and its result as they were.
    expect(hub.messages).toEqual(hubBefore);
    expect(hub.messages).not.toBe(hubBefore);
    expect(hub.messages[0]).toMatchObject({ role: 'system' });
    expect(conversationLetGo(hub)).toBe(false);
  });

  it('reads the validated body through the route schema: what it would have been given', () => {
    const { rawBody, body } = heldThrice();
    expect(dialect.conversation.parse(rawBody)).toEqual(body);
    expect(() => dialect.conversation.parse(Buffer.from(`{"${dialect.field}": [{"role": 7}]}`))).toThrow();
  });

  it('leaves a body without a conversation array alone', () => {
    const { rawBody, hub } = heldThrice();
    const body = { [dialect.field]: 'not a list' };
    letGoOfConversation({ hub: [hub], parsedBody: body, native: { body, conversation: dialect.conversation } }, rawBody);
    expect(conversationLetGo(body, dialect.field)).toBe(false);
    expect(conversationLetGo(hub)).toBe(true);
  });
});
