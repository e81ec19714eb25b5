import { lost } from '../../testing/lost';
import { ImageGenerationRequestSchema } from '@chat-relay/contract';
import { jsonAnswer, sentJson } from '../../openai-endpoints/testing/media-fixtures';
import { aspectRatioOf, geminiImagesAdapter } from './gemini-images-adapter';
import { expectOpenAiValid } from '../testing/expect-openai-valid';
import { GEMINI_CHANNEL } from '../testing/gemini-channel';

const build = (fields: Record<string, unknown>, upstreamModel: string) =>
  geminiImagesAdapter.buildRequest({
    channel: GEMINI_CHANNEL,
    key: 'AIzaTestKey',
    request: ImageGenerationRequestSchema.parse({ model: 'my-images', prompt: 'A lighthouse at dusk', ...fields }),
    upstreamModel,
  });

const convert = (answer: unknown) =>
  geminiImagesAdapter.convertResponse(JSON.stringify(answer), { request: { prompt: 'x' }, publicModel: 'my-images', contentType: 'application/json' });

describe('geminiImagesAdapter.buildRequest: Imagen', () => {
  it('asks :predict for n images at the size’s aspect ratio, the key in a header', () => {
    const built = build({ n: 3, size: '1792x1024', response_format: 'b64_json', output_format: 'jpeg', output_compression: 80, user: 'u-1' }, 'imagen-4.0-generate-001');
    expect(built.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/imagen-4.0-generate-001:predict');
    expect(built.headers).toEqual({ 'x-goog-api-key': 'AIzaTestKey', 'content-type': 'application/json' });
    expect(sentJson(built)).toEqual({
      instances: [{ prompt: 'A lighthouse at dusk' }],
      parameters: { sampleCount: 3, aspectRatio: '16:9', outputOptions: { mimeType: 'image/jpeg', compressionQuality: 80 } },
    });
    expect(built.warnings).toBeUndefined();
  });

  it('asks for one image by default, and leaves the ratio to Gemini for size auto', () => {
    expect(sentJson(build({ size: 'auto', quality: 'auto' }, 'models/imagen-3.0-generate-002'))).toEqual({
      instances: [{ prompt: 'A lighthouse at dusk' }],
      parameters: { sampleCount: 1 },
    });
  });
});

describe('geminiImagesAdapter.buildRequest: gemini-*-image models', () => {
  it('asks :generateContent for text and image output, n as candidateCount, the size as imageConfig', () => {
    const built = build({ n: 2, size: '1024x1536' }, 'gemini-2.5-flash-image');
    expect(built.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash-image:generateContent');
    expect(sentJson(built)).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'A lighthouse at dusk' }] }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'], candidateCount: 2, imageConfig: { aspectRatio: '3:4' } },
    });
    expect(built.warnings).toEqual([lost('size', 'mapped', { from: '1024x1536', to: '3:4' })]);
  });

  it('sends only the prompt and the modalities when nothing else is asked', () => {
    expect(sentJson(build({}, 'gemini-3-pro-image-preview'))).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'A lighthouse at dusk' }] }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'] },
    });
  });
});

describe('aspectRatioOf', () => {
  it.each([
    ['1024x1024', '1:1', false],
    ['256x256', '1:1', false],
    ['1792x1024', '16:9', false],
    ['1024x1792', '9:16', false],
    ['1536x1024', '4:3', true],
    ['1024x1536', '3:4', true],
    ['1200x900', '4:3', false],
  ])('%s → %s', (size, aspectRatio, warned) => {
    const mapped = aspectRatioOf(size);
    expect(mapped.aspectRatio).toBe(aspectRatio);
    expect(mapped.warning !== undefined).toBe(warned);
  });

  it.each(['2100x900', '1024', 'large', '0x1024'])('refuses %s with a 400 naming size', (size) => {
    expect(() => aspectRatioOf(size)).toThrow(expect.objectContaining({ status: 400, param: 'size' }));
  });
});

describe('geminiImagesAdapter.buildRequest: what Gemini cannot do', () => {
  it.each([
    ['response_format url', { response_format: 'url' }, 'imagen-4.0-generate-001', 'response_format'],
    ['a size of no supported shape', { size: '2048x512' }, 'imagen-4.0-generate-001', 'size'],
    ['quality hd', { quality: 'hd' }, 'imagen-4.0-generate-001', 'quality'],
    ['a style', { style: 'vivid' }, 'imagen-4.0-generate-001', 'style'],
    ['a transparent background', { background: 'transparent' }, 'gemini-2.5-flash-image', 'background'],
    ['moderation low', { moderation: 'low' }, 'imagen-4.0-generate-001', 'moderation'],
    ['webp output from Imagen', { output_format: 'webp' }, 'imagen-4.0-generate-001', 'output_format'],
    ['jpeg output from a gemini image model', { output_format: 'jpeg' }, 'gemini-2.5-flash-image', 'output_format'],
    ['compression of png output', { output_format: 'png', output_compression: 50 }, 'imagen-4.0-generate-001', 'output_compression'],
    ['an unknown field', { seed_image: 'x' }, 'imagen-4.0-generate-001', 'seed_image'],
  ])('refuses %s with a 400 naming it', (_name, fields, model, param) => {
    expect(() => build(fields, model)).toThrow(expect.objectContaining({ status: 400, param }));
  });
});

describe('geminiImagesAdapter.convertResponse', () => {
  it('turns Imagen predictions into b64_json images, one unit each', () => {
    const answer = jsonAnswer(convert({ predictions: [{ bytesBase64Encoded: 'iVBORw0KGgo=', mimeType: 'image/png' }, { bytesBase64Encoded: 'AAAA', mimeType: 'image/png' }] }));
    expectOpenAiValid('ImagesResponse', answer.body);
    expect(answer.body).toEqual({ created: expect.any(Number), data: [{ b64_json: 'iVBORw0KGgo=' }, { b64_json: 'AAAA' }] });
    expect(answer.usage).toEqual({ promptTokens: 0, completionTokens: 0, units: 2 });
  });

  it('counts only the images Imagen kept, and fails when its filters kept none', () => {
    const partly = jsonAnswer(convert({ predictions: [{ bytesBase64Encoded: 'AAAA' }, { raiFilteredReason: 'filtered' }] }));
    expect(partly.usage.units).toBe(1);
    expect(convert({})).toMatchObject({ ok: false, error: { status: 502, code: 'FILTERED' } });
    expect(convert({ predictions: [{ raiFilteredReason: 'Your prompt was blocked.' }] })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('Your prompt was blocked.') },
    });
  });

  it('takes the image parts of a generateContent answer, and its tokens', () => {
    const answer = jsonAnswer(
      convert({
        candidates: [
          { content: { role: 'model', parts: [{ text: 'Here is your lighthouse.' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] }, finishReason: 'STOP' },
        ],
        usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 1290, totalTokenCount: 1297 },
      }),
    );
    expect(answer.body).toEqual({ created: expect.any(Number), data: [{ b64_json: 'iVBORw0KGgo=' }] });
    expect(answer.usage).toEqual({ promptTokens: 7, completionTokens: 1290, units: 1 });
  });

  it('fails a generateContent answer without an image, saying why', () => {
    expect(convert({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } })).toMatchObject({ ok: false, error: { code: 'PROHIBITED_CONTENT' } });
    expect(convert({ candidates: [{ content: { parts: [{ text: 'I cannot draw that.' }] }, finishReason: 'IMAGE_SAFETY' }] })).toMatchObject({
      ok: false,
      error: { code: 'IMAGE_SAFETY' },
    });
    expect(convert({ candidates: [{ content: { parts: [{ text: 'Sure!' }] }, finishReason: 'STOP' }] })).toMatchObject({ ok: false, error: { code: 'NO_IMAGE' } });
  });

  it.each([
    ['not JSON', 'oops'],
    ['predictions that are not a list', JSON.stringify({ predictions: {} })],
  ])('fails %s as a malformed answer', (_name, text) => {
    const answer = geminiImagesAdapter.convertResponse(text, { request: {}, publicModel: 'm', contentType: 'application/json' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'bad_response' } });
  });

  it('maps Gemini errors', () => {
    const failure = geminiImagesAdapter.mapErrorResponse(429, JSON.stringify({ error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } }), []);
    expect(failure).toMatchObject({ retryable: true, error: { status: 502, code: 'RESOURCE_EXHAUSTED' } });
  });
});
