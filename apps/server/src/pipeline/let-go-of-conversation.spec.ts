import { ChatCompletionRequestSchema, type ChatCompletionRequest } from '@chat-relay/contract';
import { conversationLetGo, letGoOfConversation } from './let-go-of-conversation';

const text = JSON.stringify({
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'Hi \u00e9\u{1f600}' }], name: 'ann', extra: { kept: true } },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: 'done' },
  ],
  temperature: 0.2,
});

function parsedTwice(): { rawBody: Buffer; body: Record<string, unknown>; request: ChatCompletionRequest } {
  const rawBody = Buffer.from(text);
  const body = JSON.parse(text) as Record<string, unknown>;
  return { rawBody, body, request: ChatCompletionRequestSchema.parse(body) };
}

describe('letGoOfConversation', () => {
  it('lets go of both parsed conversations and reads each back as it was, once', () => {
    const { rawBody, body, request } = parsedTwice();
    const expected = { body: JSON.stringify(body), request: JSON.stringify(request) };
    const before = request.messages;
    const keys = Object.keys(request);
    letGoOfConversation({ hub: [request], parsedBody: body }, rawBody);
    expect(conversationLetGo(request)).toBe(true);
    expect(conversationLetGo(body)).toBe(true);
    // JSON.stringify reads the accessor: the same text, the keys in their order.
    expect(JSON.stringify(request)).toBe(expected.request);
    expect(JSON.stringify(body)).toBe(expected.body);
    expect(request.messages).toEqual(before);
    expect(request.messages).not.toBe(before);
    // Read once, held again as a value: the next read is the same array, not another parse.
    expect(conversationLetGo(request)).toBe(false);
    expect(request.messages).toBe(request.messages);
    expect(Object.keys(request)).toEqual(keys);
  });

  it('takes a value written in place of the conversation, without reading the bytes', () => {
    const { body, request } = parsedTwice();
    // Bytes that do not parse: a write must not read them.
    letGoOfConversation({ hub: [request], parsedBody: body }, Buffer.from('{"messages": ['));
    const replaced: ChatCompletionRequest['messages'] = [{ role: 'user', content: 'other' }];
    request.messages = replaced;
    expect(request.messages).toBe(replaced);
    expect(conversationLetGo(request)).toBe(false);
    expect({ ...request }.messages).toBe(replaced);
    expect(conversationLetGo(body)).toBe(true);
  });

  it('reads a spread of the request back through the schema (its output, not the raw JSON)', () => {
    const { rawBody, request } = parsedTwice();
    letGoOfConversation({ hub: [request], parsedBody: undefined }, rawBody);
    const copy = { ...request, model: 'other' };
    expect(copy.messages).toHaveLength(4);
    expect(copy.messages[1]).toEqual({ role: 'user', content: [{ type: 'text', text: 'Hi \u00e9\u{1f600}' }], name: 'ann', extra: { kept: true } });
  });

  it('leaves alone a conversation already let go of, and a body that holds none', () => {
    const { rawBody, request } = parsedTwice();
    letGoOfConversation({ hub: [request], parsedBody: 'not an object' }, rawBody);
    const accessor = Object.getOwnPropertyDescriptor(request, 'messages')?.get;
    letGoOfConversation({ hub: [request, request], parsedBody: request }, rawBody);
    expect(Object.getOwnPropertyDescriptor(request, 'messages')?.get).toBe(accessor);
    const empty: Record<string, unknown> = { model: 'm' };
    letGoOfConversation({ hub: [request], parsedBody: empty }, rawBody);
    expect(Object.getOwnPropertyDescriptor(empty, 'messages')).toBeUndefined();
  });
});
