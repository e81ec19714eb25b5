import { ImageGenerationRequestSchema } from '@chat-relay/contract';
import { expectOpenAiValid } from '../gemini/testing/expect-openai-valid';
import type { MultipartRequest } from '../hub/endpoint-adapter';
import type { UploadedFile } from '../hub/upstream-adapter';
import { imageUnitVariant, openAiImageEditsAdapter, openAiImageGenerationsAdapter } from './openai-images-adapters';
import { jsonAnswer, readFixture, readSession, sentForm } from './testing/media-fixtures';

const channel = { baseUrl: 'https://api.example.com/v1' };

describe('openAiImageGenerationsAdapter on the recorded sessions', () => {
  function replay(name: string, publicModel: string) {
    const [entry] = readSession(name);
    if (!entry) throw new Error('empty session');
    const request = ImageGenerationRequestSchema.parse(entry.RequestBody);
    const raw = JSON.stringify(entry.RequestBody);
    const built = openAiImageGenerationsAdapter.buildRequest({ channel, key: 'sk-1', request, upstreamModel: request.model ?? 'dall-e-2', rawBody: Buffer.from(raw) });
    expect(built.url).toBe(entry.RequestUri.replace('https://api.openai.com/v1', channel.baseUrl));
    expect(built.body.toString()).toBe(raw);
    const text = JSON.stringify(entry.ResponseBody);
    return { text, answer: jsonAnswer(openAiImageGenerationsAdapter.convertResponse(text, { request, publicModel, contentType: 'application/json' })) };
  }

  it('gpt-image-1: passed through as sent, priced by the quality and size the answer names, its tokens read', () => {
    const { text, answer } = replay('session-image-generation-b64-gpt-image-1.json', 'gpt-image-1');
    expect(answer.text).toBe(text);
    expectOpenAiValid('ImagesResponse', answer.body);
    expect(answer.usage).toEqual({ promptTokens: 11, completionTokens: 6240, units: 1, unitVariant: 'high/1024x1536' });
  });

  it('dall-e-3: a URL answer, priced at OpenAI’s defaults (standard, 1024x1024)', () => {
    const { answer } = replay('session-image-generation-url-dall-e-3.json', 'dall-e-3');
    expect(answer.body['data']).toEqual([expect.objectContaining({ url: expect.stringMatching(/^https:\/\//) })]);
    expect(answer.usage).toEqual({ promptTokens: 0, completionTokens: 0, units: 1, unitVariant: 'standard/1024x1024' });
  });

  it('refuses a streamed image request by name', () => {
    const request = { model: 'gpt-image-1', prompt: 'a cat', stream: true };
    expect(() => openAiImageGenerationsAdapter.buildRequest({ channel, key: 'k', request, upstreamModel: 'gpt-image-1' })).toThrow(
      expect.objectContaining({ status: 400, param: 'stream' }),
    );
  });

  it('fails a 2xx body without data so the relay may retry', () => {
    const context = { request: { prompt: 'x' }, publicModel: 'dall-e-2', contentType: 'application/json' };
    expect(openAiImageGenerationsAdapter.convertResponse('{"created":1}', context)).toMatchObject({ ok: false, error: { code: 'bad_response' } });
  });
});

describe('imageUnitVariant', () => {
  it.each([
    ['dall-e-2 by size alone, 1024x1024 by default', { model: 'dall-e-2' }, {}, '1024x1024'],
    ['dall-e-2 at the size asked', { model: 'dall-e-2', size: '256x256', quality: 'standard' }, {}, '256x256'],
    ['dall-e-3 hd at the size asked', { model: 'dall-e-3', quality: 'hd', size: '1792x1024' }, {}, 'hd/1792x1024'],
    ['gpt-image-1 by the answer first', { model: 'gpt-image-1', quality: 'auto', size: 'auto' }, { quality: 'medium', size: '1024x1024' }, 'medium/1024x1024'],
    ['gpt-image-1 by the request when the answer says nothing', { model: 'gpt-image-1', quality: 'low' }, {}, 'low/auto'],
  ])('%s', (_name, facts, answer, variant) => {
    expect(imageUnitVariant(facts, answer)).toBe(variant);
  });
});

describe('openAiImageEditsAdapter', () => {
  const file = (field: string, filename: string): UploadedFile => ({ field, filename, contentType: 'image/png', size: 10, ref: `spool/${filename}` });
  const request: MultipartRequest = {
    fields: [
      ['prompt', 'add a hat'],
      ['model', 'my-image-model'],
      ['quality', 'high'],
    ],
    files: [file('image[]', 'a.png'), file('image[]', 'b.png'), file('mask', 'mask.png')],
  };

  it('sends the form to {base_url}/images/edits: fields in order with the model swapped, files in their own fields', () => {
    const built = openAiImageEditsAdapter.buildRequest({ channel, key: 'sk-1', request, upstreamModel: 'gpt-image-1' });
    expect(built.url).toBe('https://api.example.com/v1/images/edits');
    expect(built.headers).toEqual({ authorization: 'Bearer sk-1' });
    expect(sentForm(built)).toEqual({
      kind: 'multipart',
      fields: [
        ['prompt', 'add a hat'],
        ['model', 'gpt-image-1'],
        ['quality', 'high'],
      ],
      files: request.files.map((uploaded) => ({ field: uploaded.field, file: uploaded })),
    });
  });

  it('adds the model the server resolved when the form named none', () => {
    const built = openAiImageEditsAdapter.buildRequest({ channel, key: 'k', request: { fields: [['prompt', 'x']], files: [] }, upstreamModel: 'dall-e-2' });
    expect(sentForm(built).fields).toEqual([
      ['model', 'dall-e-2'],
      ['prompt', 'x'],
    ]);
  });

  it('reads the recorded edit answer (image-edit-b64.json): one image, priced by what the answer says it made', () => {
    const text = readFixture('media/image-edit-b64.json');
    const answer = jsonAnswer(openAiImageEditsAdapter.convertResponse(text, { request, publicModel: 'my-image-model', contentType: 'application/json' }));
    expect(answer.text).toBe(text);
    expect(answer.usage).toEqual({ promptTokens: 0, completionTokens: 0, units: 1, unitVariant: 'high/1024x1024' });
  });

  it('refuses a streamed edit by name', () => {
    const streamed: MultipartRequest = { fields: [...request.fields, ['stream', 'true']], files: [] };
    expect(() => openAiImageEditsAdapter.buildRequest({ channel, key: 'k', request: streamed, upstreamModel: 'gpt-image-1' })).toThrow(
      expect.objectContaining({ status: 400, param: 'stream' }),
    );
  });
});
