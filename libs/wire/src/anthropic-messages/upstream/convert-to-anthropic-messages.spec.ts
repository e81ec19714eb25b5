import { conversionErrorFor as conversionError, convertForTest as convert, userMessage as user } from '../testing/convert-for-test';

describe('convertToAnthropicMessages', () => {
  it('lifts system and developer messages from anywhere into system, in order', () => {
    const { request } = convert({
      messages: [
        { role: 'system', content: 'Be brief.' },
        user('Hi'),
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }, { type: 'text', text: '' }] },
        { role: 'assistant', content: 'Bonjour' },
        { role: 'system', content: 'No emoji.' },
        user('Ça va ?'),
      ],
    });
    expect(request.system).toEqual([
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: 'Answer in French.' },
      { type: 'text', text: 'No emoji.' },
    ]);
    expect(request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Bonjour' }] },
      { role: 'user', content: [{ type: 'text', text: 'Ça va ?' }] },
    ]);
  });

  it('sends a base64 data: URL as a base64 image source with its media type', () => {
    const { request } = convert({
      messages: [
        user([
          { type: 'image_url', image_url: { url: 'data:image/jpg;base64,/9j/4AAQ' } },
          { type: 'text', text: 'What is it?' },
        ]),
      ],
    });
    expect(request.messages[0]!.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
      { type: 'text', text: 'What is it?' },
    ]);
  });

  it('sends an inline PDF file as a document block', () => {
    const { request } = convert({ messages: [user([{ type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0x' } }])] });
    expect(request.messages[0]!.content).toEqual([
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' } },
    ]);
  });

  it.each([
    [
      'an unsupported image type',
      [{ type: 'image_url', image_url: { url: 'data:image/tiff;base64,AAAA' } }],
      'messages[0].content[0].image_url.url',
    ],
    ['a non-base64 data URL', [{ type: 'image_url', image_url: { url: 'data:image/png,raw' } }], 'messages[0].content[0].image_url.url'],
    ['an ftp image URL', [{ type: 'image_url', image_url: { url: 'ftp://example.com/a.png' } }], 'messages[0].content[0].image_url.url'],
    ['audio input', [{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }], 'messages[0].content[0]'],
    ['a file by id', [{ type: 'file', file: { file_id: 'file-123' } }], 'messages[0].content[0].file'],
  ])('refuses %s with a 400 naming the part', (_name, content, param) => {
    const error = conversionError({ messages: [user(content)] });
    expect(error.toBody().error).toMatchObject({ type: 'invalid_request_error', param });
    expect(error.status).toBe(400);
  });

  it('refuses tool-call arguments that are not a JSON object, naming them', () => {
    const error = conversionError({
      messages: [
        user('Go'),
        { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'x' },
      ],
    });
    expect(error.param).toBe('messages[1].tool_calls[0].function.arguments');
  });

  it('refuses legacy function messages and a conversation with nothing to send', () => {
    expect(conversionError({ messages: [user('a'), { role: 'function', name: 'f', content: '1' }] }).param).toBe('messages[1].role');
    expect(conversionError({ messages: [{ role: 'system', content: 'Only a system prompt' }] }).param).toBe('messages');
  });
});
