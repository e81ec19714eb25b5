import { AnthropicMessagesRequestSchema } from '@chat-relay/contract';
import { convertMessagesToChat } from '@chat-relay/wire';
import { conversationLetGo, letGoOfConversation } from '../../pipeline/let-go-of-conversation';
import { messagesConversation } from './messages-conversation';

const text = JSON.stringify({
  model: 'claude-sonnet-4-5',
  max_tokens: 512,
  system: [{ type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } }],
  messages: [
    { role: 'user', content: 'Read the file \u00e9\u{1f600}' },
    { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.ts' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'export const a = 1;' }] },
  ],
  tools: [{ name: 'read', description: 'Reads a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
});

/** The three forms a Messages request is held in while its answer is awaited. */
function heldThrice() {
  const rawBody = Buffer.from(text);
  const parsedBody = JSON.parse(text) as Record<string, unknown>;
  const body = AnthropicMessagesRequestSchema.parse(parsedBody);
  const hub = convertMessagesToChat(body).request;
  return { rawBody, parsedBody, body, hub };
}

describe('messagesConversation', () => {
  it('lets go of the body as parsed, as validated and as converted to the hub, and reads each back as it was', () => {
    const { rawBody, parsedBody, body, hub } = heldThrice();
    const expected = [parsedBody, body, hub].map((held) => JSON.stringify(held));
    const hubBefore = hub.messages;
    letGoOfConversation({ hub: [hub], parsedBody, native: { body, conversation: messagesConversation } }, rawBody);
    expect([conversationLetGo(parsedBody), conversationLetGo(body), conversationLetGo(hub)]).toEqual([true, true, true]);
    expect([parsedBody, body, hub].map((held) => JSON.stringify(held))).toEqual(expected);
    // The hub's conversation converted again: the system prompt first, the tool call and its result as they were.
    expect(hub.messages).toEqual(hubBefore);
    expect(hub.messages).not.toBe(hubBefore);
    expect(hub.messages[0]).toMatchObject({ role: 'system' });
    expect(conversationLetGo(hub)).toBe(false);
  });

  it('reads the validated body through the route schema: what it would have been given', () => {
    const { rawBody, body } = heldThrice();
    expect(messagesConversation.parse(rawBody)).toEqual(body);
    expect(() => messagesConversation.parse(Buffer.from('{"model":"m","messages":[{"role":"robot"}]}'))).toThrow();
  });

  it('leaves a body without a conversation array alone', () => {
    const { rawBody, hub } = heldThrice();
    const body = { model: 'm', messages: 'not a list' };
    letGoOfConversation({ hub: [hub], parsedBody: body, native: { body, conversation: messagesConversation } }, rawBody);
    expect(conversationLetGo(body)).toBe(false);
    expect(conversationLetGo(hub)).toBe(true);
  });
});
