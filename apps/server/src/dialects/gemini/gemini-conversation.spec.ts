import { GeminiGenerateContentRequestSchema } from '@chat-relay/contract';
import { convertGenerateContentToChat } from '@chat-relay/wire';
import { conversationLetGo, letGoOfConversation } from '../../pipeline/let-go-of-conversation';
import { geminiConversation } from './gemini-conversation';

// Proto JSON: the system instruction in snake_case, the parts in camelCase, as Gemini reads both.
const text = JSON.stringify({
  system_instruction: { parts: [{ text: 'You are a coding agent.' }] },
  contents: [
    { role: 'user', parts: [{ text: 'Read the file \u00e9\u{1f600}' }] },
    { role: 'model', parts: [{ functionCall: { name: 'read', args: { path: 'a.ts' } } }] },
    { role: 'user', parts: [{ functionResponse: { name: 'read', response: { content: 'export const a = 1;' } } }] },
  ],
  tools: [{ functionDeclarations: [{ name: 'read', description: 'Reads a file', parameters: { type: 'OBJECT', properties: { path: { type: 'STRING' } } } }] }],
});
const target = { model: 'gemini-2.5-flash', stream: false };

describe('geminiConversation', () => {
  it('lets go of the body as parsed, as validated and as converted to the hub, and reads each back as it was', () => {
    const rawBody = Buffer.from(text);
    const parsedBody = JSON.parse(text) as Record<string, unknown>;
    const body = GeminiGenerateContentRequestSchema.parse(parsedBody);
    const hub = convertGenerateContentToChat({ body, ...target }).request;
    const expected = [parsedBody, body, hub].map((held) => JSON.stringify(held));
    const hubBefore = hub.messages;
    letGoOfConversation({ hub: [hub], parsedBody, native: { body, conversation: geminiConversation(target) } }, rawBody);
    expect([conversationLetGo(parsedBody, 'contents'), conversationLetGo(body, 'contents'), conversationLetGo(hub)]).toEqual([true, true, true]);
    expect([parsedBody, body, hub].map((held) => JSON.stringify(held))).toEqual(expected);
    // The hub's conversation converted again: the system instruction first, the call and its response as they were.
    expect(hub.messages).toEqual(hubBefore);
    expect(hub.messages).not.toBe(hubBefore);
    expect(hub.messages[0]).toMatchObject({ role: 'system' });
    expect(conversationLetGo(hub)).toBe(false);
  });

  it('reads the validated body through the route schema: what it would have been given', () => {
    const rawBody = Buffer.from(text);
    expect(geminiConversation(target).parse(rawBody)).toEqual(GeminiGenerateContentRequestSchema.parse(JSON.parse(text)));
  });
});
