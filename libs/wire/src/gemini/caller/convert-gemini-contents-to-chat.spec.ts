import { lost } from '../../testing/lost';
import { GeminiGenerateContentRequestSchema } from '@chat-relay/contract';
import { BridgeNotes } from '../../hub/bridge-notes';
import { convertGeminiContentsToChat } from './convert-gemini-contents-to-chat';

function convert(body: Record<string, unknown>) {
  const parsed = GeminiGenerateContentRequestSchema.parse(body);
  const notes = new BridgeNotes((param, why) => `'${param}' can only be served by a Gemini channel: ${why}.`);
  const messages = convertGeminiContentsToChat(parsed.systemInstruction, parsed.contents, notes);
  return { messages, notes };
}

const user = (...parts: Record<string, unknown>[]) => ({ role: 'user', parts });
const model = (...parts: Record<string, unknown>[]) => ({ role: 'model', parts });

describe('convertGeminiContentsToChat', () => {
  it('systemInstruction → one leading system message, its text parts joined by a blank line', () => {
    const { messages } = convert({ systemInstruction: { parts: [{ text: 'Be brief.' }, { text: '' }, { text: 'Be kind.' }] }, contents: [user({ text: 'Hi' })] });
    expect(messages).toEqual([
      { role: 'system', content: 'Be brief.\n\nBe kind.' },
      { role: 'user', content: 'Hi' },
    ]);
  });

  it('turns in order: user (or no role) → user, model → assistant; a lone text part stays a string', () => {
    const { messages, notes } = convert({ contents: [{ parts: [{ text: 'Hi' }] }, model({ text: 'Hel' }, { text: 'lo' }), user({ text: 'a' }, { text: 'b' })] });
    expect(messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
      { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
    ]);
    expect(notes.warnings).toEqual([]);
  });

  it('media: images, audio and PDFs inline, text data decoded, an image URL as an image', () => {
    const { messages, notes } = convert({
      contents: [
        user(
          { inlineData: { mimeType: 'image/png', data: 'iVBO' } },
          { inlineData: { mimeType: 'audio/mpeg', data: 'SUQz' } },
          { inlineData: { mimeType: 'application/pdf', data: 'JVBE' } },
          { inlineData: { mimeType: 'text/plain', data: Buffer.from('notes').toString('base64') } },
          { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/cat.jpg' } },
        ),
      ],
    });
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBO' } },
          { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'document.pdf' } },
          { type: 'text', text: 'notes' },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
        ],
      },
    ]);
    expect(notes.nativeOnly).toBeUndefined();
  });

  it.each([
    [{ fileData: { mimeType: 'video/mp4', fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc' } }, 'contents[0].parts[0].fileData.fileUri'],
    [{ fileData: { mimeType: 'image/png', fileUri: 'gs://bucket/cat.png' } }, 'contents[0].parts[0].fileData.fileUri'],
    [{ fileData: { mimeType: 'video/mp4', fileUri: 'https://example.com/a.mp4' } }, 'contents[0].parts[0].fileData'],
    [{ inlineData: { mimeType: 'video/mp4', data: 'AAAA' } }, 'contents[0].parts[0].inlineData.mimeType'],
    [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }, 'contents[0].parts[0]'],
    [{ somethingNew: { a: 1 } }, 'contents[0].parts[0]'],
  ])('a user part %j only Gemini can read is refused, naming %s', (part, param) => {
    expect(convert({ contents: [user(part)] }).notes.nativeOnly).toMatchObject({ status: 400, param });
  });

  it('a function call round trip: calls keep their ids, responses answer them by id, tool messages first', () => {
    const { messages, notes } = convert({
      contents: [
        user({ text: 'Weather and time in Paris?' }),
        model({ text: 'Let me look.' }, { functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'sig' }, { functionCall: { id: 'c2', name: 'get_time', args: {} } }),
        user({ functionResponse: { id: 'c2', name: 'get_time', response: { time: '14:05' } } }, { functionResponse: { id: 'c1', name: 'get_weather', response: { sky: 'sunny' } } }, { text: 'Thanks' }),
      ],
    });
    expect(messages).toEqual([
      { role: 'user', content: 'Weather and time in Paris?' },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'c2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c2', content: '{"time":"14:05"}' },
      { role: 'tool', tool_call_id: 'c1', content: '{"sky":"sunny"}' },
      { role: 'user', content: 'Thanks' },
    ]);
    // The thought signature means nothing to another provider: dropped without a word.
    expect(notes.warnings).toEqual([]);
  });

  it('calls without ids get their place as id; responses without ids answer the first open call of their name', () => {
    const { messages } = convert({
      contents: [
        user({ text: 'Two cities' }),
        model({ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { name: 'get_weather', args: { city: 'Rome' } } }),
        user({ functionResponse: { name: 'get_weather', response: { sky: 'sunny' } } }, { functionResponse: { id: 'unknown', name: 'get_weather', response: { sky: 'rain' } } }),
      ],
    });
    expect(messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_gemini_1_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_gemini_1_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_gemini_1_0', content: '{"sky":"sunny"}' },
      { role: 'tool', tool_call_id: 'call_gemini_1_1', content: '{"sky":"rain"}' },
    ]);
  });

  it('a response that answers no call of the model turn before it is refused, naming it', () => {
    const { notes } = convert({
      contents: [user({ text: 'Hi' }), model({ functionCall: { name: 'a', args: {} } }), user({ functionResponse: { name: 'b', response: {} } })],
    });
    expect(notes.nativeOnly).toMatchObject({ param: 'contents[2].parts[0].functionResponse' });
    expect(notes.nativeOnly?.message).toContain("answers no functionCall of 'b'");
  });

  it('multimodal function responses (parts) are refused', () => {
    const { notes } = convert({
      contents: [user({ text: 'Hi' }), model({ functionCall: { name: 'a', args: {} } }), user({ functionResponse: { name: 'a', response: {}, parts: [{ inlineData: { mimeType: 'image/png', data: 'x' } }] } })],
    });
    expect(notes.nativeOnly?.param).toBe('contents[2].parts[0].functionResponse.parts');
  });

  it('thought parts are left out with one warning; a final model turn is history, said once', () => {
    const { messages, notes } = convert({
      contents: [user({ text: 'Hi' }), model({ text: 'pondering', thought: true }, { text: 'Hello' })],
    });
    expect(messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
    ]);
    expect(notes.warnings).toEqual([lost(/^contents\[\d+\]\.parts\[\d+\]\.thought$/), lost(/^contents\[\d+\]$/, 'mapped')]);
  });

  it.each([
    [model({ executableCode: { code: 'x' } }), 'code Gemini ran itself'],
    [model({ inlineData: { mimeType: 'image/png', data: 'x' } }), "'inlineData' parts"],
  ])('model parts only Gemini can take back are refused: %j', (turn, why) => {
    const { notes } = convert({ contents: [user({ text: 'Hi' }), turn] });
    expect(notes.nativeOnly?.param).toBe('contents[1].parts[0]');
    expect(notes.nativeOnly?.message).toContain(why);
  });

  it('a system instruction that is not text is refused', () => {
    const { notes } = convert({ systemInstruction: { parts: [{ inlineData: { mimeType: 'image/png', data: 'x' } }] }, contents: [user({ text: 'Hi' })] });
    expect(notes.nativeOnly?.param).toBe('systemInstruction.parts[0]');
  });
});
