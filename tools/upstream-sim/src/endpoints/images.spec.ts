import { createHash } from 'node:crypto';
import { ErrorResponseSchema, ImagesResponseSchema, type ImagesResponse } from '@chat-relay/contract';
import { expectSpecValid, warmSpecChecker } from '../responses/testing/openai-spec-check';
import { startUpstreamSim } from '../sim-server';
import { callOpenAi, postForm, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { inputImageTokens } from './handle-images';
import { crc32, simPng } from './png';
import { readPng } from './testing/read-png';

let sim: UpstreamSim;
beforeAll(async () => {
  warmSpecChecker();
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

function checked(json: unknown): ImagesResponse {
  expectSpecValid('ImagesResponse', json);
  return ImagesResponseSchema.parse(json);
}

async function generate(body: Record<string, unknown>): Promise<ImagesResponse> {
  const response = await callOpenAi(sim, 'POST', '/images/generations', { body: { prompt: 'a red fox', ...body } });
  expect(response.status).toBe(200);
  return checked(await response.json());
}

const pngOf = (image: { b64_json?: string | undefined } | undefined): Buffer => Buffer.from(image?.b64_json ?? '', 'base64');

describe('the simulated PNG', () => {
  it('is an 8×8 truecolour PNG with valid chunks, the same for the same seed', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    const png = readPng(simPng('a red fox'));
    expect(png).toMatchObject({ width: 8, height: 8, chunks: ['IHDR', 'IDAT', 'IEND'] });
    expect(simPng('a red fox')).toEqual(simPng('a red fox'));
    expect(simPng('a blue fox')).not.toEqual(simPng('a red fox'));
  });
});

describe('POST /v1/images/generations', () => {
  it('answers GPT image models with base64 PNGs, usage, size, quality, background and format', async () => {
    const answer = await generate({ model: 'gpt-image-1', n: 2, size: '1536x1024', quality: 'high' });
    expect(answer.data).toHaveLength(2);
    const [first, second] = answer.data.map(pngOf);
    expect(readPng(first ?? Buffer.alloc(0)).width).toBe(8);
    expect(first?.equals(second ?? Buffer.alloc(0))).toBe(false);
    expect(answer).toMatchObject({ size: '1536x1024', quality: 'high', background: 'opaque', output_format: 'png' });
    expect(answer.usage).toEqual({
      input_tokens: 3,
      input_tokens_details: { text_tokens: 3, image_tokens: 0 },
      output_tokens: 2 * 6240,
      total_tokens: 3 + 2 * 6240,
    });
    const again = await generate({ model: 'gpt-image-1', n: 2, size: '1536x1024', quality: 'high' });
    expect(again.data).toEqual(answer.data);
  });

  it('defaults GPT image size, quality and background to concrete values', async () => {
    const answer = await generate({ model: 'gpt-image-1', size: 'auto', quality: 'auto', background: 'transparent' });
    expect(answer).toMatchObject({ size: '1024x1024', quality: 'medium', background: 'transparent', usage: { output_tokens: 1056 } });
  });

  it('answers DALL·E (the default model) with URLs to PNGs the simulator serves without a key', async () => {
    const answer = await generate({});
    expect(answer).not.toHaveProperty('usage');
    const url = answer.data[0]?.url ?? '';
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${sim.port}/files/img-[0-9a-f]{32}\\.png$`));
    const image = await fetch(url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(readPng(Buffer.from(await image.arrayBuffer())).height).toBe(8);
    const missing = await fetch(url.replace(/img-[0-9a-f]{4}/, 'img-0000'));
    expect(missing.status).toBe(404);
  });

  it('gives DALL·E 3 a revised prompt and DALL·E base64 when asked', async () => {
    const answer = await generate({ model: 'dall-e-3', response_format: 'b64_json' });
    expect(answer.data[0]?.revised_prompt).toBe('a red fox');
    expect(readPng(pngOf(answer.data[0])).width).toBe(8);
    const gptUrl = await generate({ model: 'gpt-image-1', response_format: 'url' });
    expect(gptUrl.data[0]?.url).toMatch(/\/files\/img-/);
  });

  it('answers 400 for a missing prompt and n out of range', async () => {
    const missing = await callOpenAi(sim, 'POST', '/images/generations', { body: { model: 'dall-e-2' } });
    expect(ErrorResponseSchema.parse(await missing.json()).error).toMatchObject({ message: "Missing required parameter: 'prompt'.", param: 'prompt' });
    const tooMany = await callOpenAi(sim, 'POST', '/images/generations', { body: { prompt: 'x', n: 11 } });
    expect(ErrorResponseSchema.parse(await tooMany.json()).error).toMatchObject({ code: 'integer_above_max_value', param: 'n' });
  });
});

const pngBlob = (seed: string): Blob => new Blob([simPng(seed)], { type: 'image/png' });

function editForm(entries: [string, string | Blob, string?][]): FormData {
  const form = new FormData();
  for (const [name, value, filename] of entries) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, filename ?? 'image.png');
  }
  return form;
}

describe('POST /v1/images/edits', () => {
  it('edits an image with a mask into a PNG that depends on the upload, and records the files whole', async () => {
    const form = editForm([
      ['model', 'gpt-image-1'],
      ['prompt', 'add a hat'],
      ['image', pngBlob('input one'), 'fox.png'],
      ['mask', pngBlob('mask'), 'mask.png'],
    ]);
    const response = await postForm(sim, '/images/edits', form);
    expect(response.status).toBe(200);
    const answer = checked(await response.json());
    expect(readPng(pngOf(answer.data[0])).width).toBe(8);
    expect(answer.usage?.input_tokens_details).toEqual({ text_tokens: 3, image_tokens: inputImageTokens });
    expect(sim.requests[0]?.body).toBeUndefined();
    expect(sim.requests[0]?.multipart).toEqual({
      fields: [
        ['model', 'gpt-image-1'],
        ['prompt', 'add a hat'],
      ],
      files: [
        { field: 'image', filename: 'fox.png', contentType: 'image/png', size: simPng('input one').length, sha256: createHash('sha256').update(simPng('input one')).digest('hex') },
        { field: 'mask', filename: 'mask.png', contentType: 'image/png', size: simPng('mask').length, sha256: createHash('sha256').update(simPng('mask')).digest('hex') },
      ],
    });
    const other = editForm([['model', 'gpt-image-1'], ['prompt', 'add a hat'], ['image', pngBlob('input two'), 'fox.png'], ['mask', pngBlob('mask'), 'mask.png']]);
    const otherAnswer = checked(await (await postForm(sim, '/images/edits', other)).json());
    expect(otherAnswer.data[0]?.b64_json).not.toBe(answer.data[0]?.b64_json);
  });

  it('takes several images as image[] and counts their tokens; DALL·E 2 edits answer URLs', async () => {
    const several = editForm([['model', 'gpt-image-1'], ['prompt', 'merge'], ['image[]', pngBlob('a'), 'a.png'], ['image[]', pngBlob('b'), 'b.png'], ['n', '2']]);
    const answer = checked(await (await postForm(sim, '/images/edits', several)).json());
    expect(answer.data).toHaveLength(2);
    expect(answer.usage?.input_tokens_details).toEqual({ text_tokens: 1, image_tokens: 2 * inputImageTokens });
    const dalle = checked(await (await postForm(sim, '/images/edits', editForm([['prompt', 'hat'], ['image', pngBlob('a')]]))).json());
    expect(dalle.data[0]?.url).toMatch(/\/files\/img-[0-9a-f]{32}\.png$/);
  });

  it('answers 400 without an image, and for a JSON body', async () => {
    const noImage = await postForm(sim, '/images/edits', editForm([['prompt', 'add a hat']]));
    expect(noImage.status).toBe(400);
    expect(ErrorResponseSchema.parse(await noImage.json()).error).toMatchObject({ message: "Missing required parameter: 'image'.", param: 'image' });
    const json = await callOpenAi(sim, 'POST', '/images/edits', { body: { prompt: 'x' } });
    expect(json.status).toBe(400);
    expect(ErrorResponseSchema.parse(await json.json()).error.message).toMatch(/^Invalid Content-Type header \(application\/json\), expected multipart\/form-data/);
  });
});
