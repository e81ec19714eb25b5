import { MessageSchema, type Message } from '@chat-relay/contract';
import { RelayError } from '../../errors/relay-error';
import { convertToGeminiContents, toolResponseOf } from './convert-to-gemini-contents';

const messages = (list: unknown[]): Message[] => list.map((message) => MessageSchema.parse(message));
const convert = (list: unknown[]) => convertToGeminiContents(messages(list));

function rejectionOf(list: unknown[]) {
  try {
    convert(list);
  } catch (error) {
    if (!(error instanceof RelayError)) throw error;
    return { status: error.status, param: error.param, message: error.message };
  }
  throw new Error('expected a 400');
}

const ARGUMENTS = 'messages[0].tool_calls[0].function.arguments';
const image = (url: string) => ({ type: 'image_url', image_url: { url } });
const call = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } });

describe('convertToGeminiContents', () => {
  it('gathers system and developer messages from anywhere into the system instruction, in order', () => {
    expect(
      convert([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }, { type: 'text', text: 'No emoji.' }] },
        { role: 'assistant', content: 'Salut' },
        { role: 'system', content: '' },
      ]),
    ).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Answer in French.' }, { text: 'No emoji.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }] },
        { role: 'model', parts: [{ text: 'Salut' }] },
      ],
    });
  });

  it('sends images inline (data: URL) or by URL with a type guessed from the extension, audio and files inline', () => {
    const { contents } = convert([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cats/Tabby.JPG?size=large', detail: 'low' } },
          { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
        ],
      },
    ]);
    expect(contents).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'What is this?' },
          { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
          { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/cats/Tabby.JPG?size=large' } },
          { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
          { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
        ],
      },
    ]);
  });

  it.each([
    ['an image URL of unknown type', image('https://example.com/picture'), 'messages[0].content[0].image_url.url'],
    ['an image type Gemini does not read', image('https://x.org/a.svg'), 'messages[0].content[0].image_url.url'],
    ['an ftp image', image('ftp://x.org/a.png'), 'messages[0].content[0].image_url.url'],
    ['a data: URL that is not base64', image('data:image/png,abc'), 'messages[0].content[0].image_url.url'],
    ['an OpenAI file id', { type: 'file', file: { file_id: 'file-123' } }, 'messages[0].content[0].file.file_id'],
    ['flac audio', { type: 'input_audio', input_audio: { data: 'x', format: 'flac' } }, 'messages[0].content[0].input_audio.format'],
  ])('rejects %s', (_name, part, param) => {
    expect(rejectionOf([{ role: 'user', content: [part] }])).toMatchObject({ status: 400, param });
  });

  it('sends assistant text and tool calls as one model turn, and no empty text part beside the calls', () => {
    const { contents } = convert([
      { role: 'user', content: 'Weather in Paris and Rome?' },
      { role: 'assistant', content: 'Checking.', tool_calls: [call('c1', 'weather', '{"city":"Paris"}'), call('c2', 'weather', '')] },
      { role: 'tool', tool_call_id: 'c1', content: '{"temp":21}' },
      { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: 'sunny, ' }, { type: 'text', text: '25' }] },
      { role: 'assistant', content: '', tool_calls: [call('c3', 'weather', '{"city":"Oslo"}')] },
      { role: 'tool', tool_call_id: 'c3', content: '[1,2]' },
      { role: 'user', content: 'Thanks' },
    ]);
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Checking.' },
          { functionCall: { id: 'c1', name: 'weather', args: { city: 'Paris' } } },
          { functionCall: { id: 'c2', name: 'weather', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'c1', name: 'weather', response: { temp: 21 } } },
          { functionResponse: { id: 'c2', name: 'weather', response: { content: 'sunny, 25' } } },
        ],
      },
      { role: 'model', parts: [{ functionCall: { id: 'c3', name: 'weather', args: { city: 'Oslo' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'c3', name: 'weather', response: { content: [1, 2] } } }] },
      { role: 'user', parts: [{ text: 'Thanks' }] },
    ]);
  });

  it('wraps every tool result that is not a JSON object, so response is always an object', () => {
    expect(toolResponseOf('{"a":1}')).toEqual({ a: 1 });
    expect(toolResponseOf('plain text')).toEqual({ content: 'plain text' });
    expect(toolResponseOf('42')).toEqual({ content: 42 });
    expect(toolResponseOf('null')).toEqual({ content: null });
    expect(toolResponseOf('"quoted"')).toEqual({ content: 'quoted' });
    expect(toolResponseOf('')).toEqual({ content: '' });
  });

  it('skips an assistant message with nothing in it', () => {
    const list = [{ role: 'user', content: 'a' }, { role: 'assistant', content: null }, { role: 'user', content: 'b' }];
    expect(convert(list).contents).toEqual([
      { role: 'user', parts: [{ text: 'a' }] },
      { role: 'user', parts: [{ text: 'b' }] },
    ]);
  });

  it.each([
    [
      'a tool result for no known call',
      [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'nope', content: '1' }],
      'messages[1].tool_call_id',
    ],
    ['arguments that are not JSON', [{ role: 'assistant', tool_calls: [call('a', 'f', '{oops')] }], ARGUMENTS],
    ['arguments that are not an object', [{ role: 'assistant', tool_calls: [call('a', 'f', '[1]')] }], ARGUMENTS],
    ['a legacy function message', [{ role: 'function', name: 'f', content: '1' }], 'messages[0].role'],
    ['an empty user content list', [{ role: 'user', content: [] }], 'messages[0].content'],
    ['only system messages', [{ role: 'system', content: 'x' }], 'messages'],
  ])('rejects %s', (_name, list, param) => {
    expect(rejectionOf(list)).toMatchObject({ status: 400, param });
  });
});
