import { lost } from '../../testing/lost';
import { bridgedMessages, bridgeRequest } from '../testing/bridge-request';

const PNG = 'iVBORw0KGgo=';
const PDF = 'JVBERi0xLjQ=';
const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });
const toolUse = (id: string, input: Record<string, unknown> = {}) => ({ type: 'tool_use', id, name: 'lookup', input });

describe('convertMessagesToChat: system', () => {
  it('a system string is one leading system message, as it is', () => {
    expect(bridgedMessages([user('Hi')], { system: 'Be brief.' })).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
  });

  it('system text blocks are joined by a blank line, empty ones left out, cache_control dropped with a warning', () => {
    const { request, warnings } = bridgeRequest({
      system: [
        { type: 'text', text: 'You are Claude Code.' },
        { type: 'text', text: '' },
        { type: 'text', text: 'Rules follow.', cache_control: { type: 'ephemeral' } },
      ],
    });
    expect(request.messages[0]).toEqual({ role: 'system', content: 'You are Claude Code.\n\nRules follow.' });
    expect(warnings).toEqual([lost('cache_control')]);
  });

  it('no system message at all for an empty system, and a system turn inside messages stays where it is', () => {
    expect(bridgedMessages([user('a'), { role: 'system', content: [{ type: 'text', text: 'Now French.' }] }, user('b')], { system: '' })).toEqual([
      { role: 'user', content: 'a' },
      { role: 'system', content: 'Now French.' },
      { role: 'user', content: 'b' },
    ]);
  });
});

describe('convertMessagesToChat: user content', () => {
  it('a lone text block is a plain string; several blocks stay separate parts, in order', () => {
    expect(bridgedMessages([user([{ type: 'text', text: 'Hi' }])])).toEqual([{ role: 'user', content: 'Hi' }]);
    expect(bridgedMessages([user([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }])])).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
    ]);
  });

  it('images: base64 → a data: URL of its media type, url → the URL', () => {
    const [message] = bridgedMessages([
      user([
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
      ]),
    ]);
    expect(message).toEqual({
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
      ],
    });
  });

  it('a base64 PDF is a file part named by its title (or document.pdf), its context a text part before it', () => {
    const pdf = (extra: Record<string, unknown>) => ({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: PDF },
      ...extra,
    });
    const [message] = bridgedMessages([user([pdf({ title: 'report.pdf', context: 'Q3 numbers' }), pdf({})])]);
    expect(message).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Q3 numbers' },
        { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' } },
        { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'document.pdf' } },
      ],
    });
  });

  it('a text document is one text part of its title, context and text; a content document keeps its blocks', () => {
    const { request, warnings } = bridgeRequest({
      messages: [
        user([
          {
            type: 'document',
            title: 'Notes',
            context: 'from the meeting',
            citations: { enabled: true },
            source: { type: 'text', media_type: 'text/plain', data: 'Ship on Friday.' },
          },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Bare.' } },
          {
            type: 'document',
            title: 'Deck',
            source: {
              type: 'content',
              content: [
                { type: 'text', text: 'Slide 1' },
                { type: 'image', source: { type: 'url', url: 'https://example.com/s1.png' } },
              ],
            },
          },
        ]),
      ],
    });
    expect(request.messages[0]?.content).toEqual([
      { type: 'text', text: 'Notes\n\nfrom the meeting\n\nShip on Friday.' },
      { type: 'text', text: 'Bare.' },
      { type: 'text', text: 'Deck' },
      { type: 'text', text: 'Slide 1' },
      { type: 'image_url', image_url: { url: 'https://example.com/s1.png' } },
    ]);
    expect(warnings).toEqual([lost('citations')]);
  });

  it.each([
    ['an image from the Files API', { type: 'image', source: { type: 'file', file_id: 'file_1' } }, 'messages[0].content[1].source'],
    ['a document from the Files API', { type: 'document', source: { type: 'file', file_id: 'file_1' } }, 'messages[0].content[1].source'],
    ['a document Anthropic fetches', { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } }, 'messages[0].content[1].source'],
    ['a block type the relay does not model', { type: 'search_result', source: 's', title: 't', content: [] }, 'messages[0].content[1].type'],
  ])('%s is Anthropic only, and the rest is still converted', (_name, block, param) => {
    const { request, nativeOnly } = bridgeRequest({ messages: [user([{ type: 'text', text: 'look' }, block])] });
    expect(nativeOnly?.toBody().error).toMatchObject({ type: 'invalid_request_error', param, code: 'unsupported_parameter' });
    expect(nativeOnly?.status).toBe(400);
    expect(request.messages).toEqual([{ role: 'user', content: 'look' }]);
  });
});

describe('convertMessagesToChat: assistant turns', () => {
  it('text and tool_use → content and tool_calls with the input as JSON; tool calls alone → content null', () => {
    expect(
      bridgedMessages([
        user('q'),
        assistant([{ type: 'text', text: 'Let me look.' }, toolUse('toolu_1', { city: 'Paris', days: [1, 2] })]),
        user([{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }]),
        assistant([toolUse('toolu_2')]),
      ]),
    ).toEqual([
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'lookup', arguments: '{"city":"Paris","days":[1,2]}' } }],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_2', type: 'function', function: { name: 'lookup', arguments: '{}' } }] },
    ]);
  });

  it('thinking and redacted_thinking are dropped with a warning; a turn left empty is not sent', () => {
    const { request, warnings } = bridgeRequest({
      messages: [
        user('q'),
        assistant([{ type: 'thinking', thinking: 'hmm', signature: 'sig' }, { type: 'text', text: 'A' }]),
        user('again'),
        assistant([{ type: 'redacted_thinking', data: 'xyz' }]),
        user('once more'),
      ],
    });
    expect(request.messages).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'A' },
      { role: 'user', content: 'again' },
      { role: 'user', content: 'once more' },
    ]);
    expect(warnings).toEqual([lost('messages[*].content[*].thinking')]);
  });

  it('a string assistant content stays a string, and a final assistant turn (prefill) is named in a warning', () => {
    const { request, warnings } = bridgeRequest({ messages: [user('q'), assistant('The answer is')] });
    expect(request.messages.at(-1)).toEqual({ role: 'assistant', content: 'The answer is' });
    expect(warnings).toEqual([lost('messages[1]', 'mapped')]);
  });

  it('server tool blocks in history are Anthropic only', () => {
    const { nativeOnly } = bridgeRequest({
      messages: [user('q'), assistant([{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } }]), user('ok')],
    });
    expect(nativeOnly?.param).toBe('messages[1].content[0].type');
  });
});

describe('convertMessagesToChat: tool results', () => {
  it('tool messages come right after the assistant turn, before the rest of the user turn, in block order', () => {
    expect(
      bridgedMessages([
        user('q'),
        assistant([toolUse('toolu_a'), toolUse('toolu_b')]),
        user([
          { type: 'text', text: 'Both done.' },
          { type: 'tool_result', tool_use_id: 'toolu_a', content: [{ type: 'text', text: 'A1' }, { type: 'text', text: 'A2' }] },
          { type: 'tool_result', tool_use_id: 'toolu_b' },
        ]),
      ]).slice(2),
    ).toEqual([
      { role: 'tool', tool_call_id: 'toolu_a', content: 'A1\n\nA2' },
      { role: 'tool', tool_call_id: 'toolu_b', content: '' },
      { role: 'user', content: 'Both done.' },
    ]);
  });

  it('images of a tool result follow the tool messages in a user message, before the turn’s own content', () => {
    const { request, warnings } = bridgeRequest({
      messages: [
        user('screenshot please'),
        assistant([toolUse('toolu_s')]),
        user([
          {
            type: 'tool_result',
            tool_use_id: 'toolu_s',
            is_error: true,
            content: [
              { type: 'text', text: 'partial capture' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            ],
          },
          { type: 'text', text: 'What do you see?' },
        ]),
      ],
    });
    expect(request.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'toolu_s', content: 'partial capture' },
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'text', text: 'What do you see?' },
        ],
      },
    ]);
    expect(warnings).toEqual([lost('tool_result.is_error')]);
  });
});
