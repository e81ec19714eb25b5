import { embeddingVector, simImageSide, type RecordedRequest } from '@chat-relay/upstream-sim';
import OpenAI from 'openai';
import { SIM_KEY } from './e2e-relay';
import {
  expectAnswersValid,
  pngSize,
  prepareSpec,
  PREPARE_SPEC_MS,
  rowSummary,
  startEndpointsRelay,
  usageRowsOfExchanges,
  type EndpointsE2e,
} from './endpoints-sdk-e2e';

/**
 * The official `openai` SDK on routes the relay translates for other providers: embeddings and
 * image generation in Gemini's own API (batchEmbedContents, Imagen `:predict`, generateContent
 * with image output), and legacy completions bridged as one chat turn to Gemini and Anthropic
 * channels. The SDK reads the same answers as from OpenAI; what cannot be translated is a 400
 * naming the field, before anything is sent upstream.
 */

let e2e: EndpointsE2e;
beforeAll(async () => {
  prepareSpec();
  e2e = await startEndpointsRelay();
  await e2e.addChannel(e2e.sim.geminiBaseUrl, { name: 'gemini', type: 'gemini', models: ['gemini-*', 'text-embedding-004', 'imagen-*'] });
  await e2e.addChannel(e2e.sim.anthropicBaseUrl, { name: 'anthropic', type: 'anthropic', models: ['claude-*'] });
}, PREPARE_SPEC_MS);
afterAll(() => e2e.close());
beforeEach(() => e2e.forget());

const geminiCalls = (method: string): RecordedRequest[] => e2e.sim.requests.filter((request) => request.path.endsWith(`:${method}`));

/** The simulator's Gemini route asked directly, with the channel's key: what the relay translated from. */
async function geminiDirect<T>(model: string, method: string, body: unknown): Promise<T> {
  const response = await fetch(`${e2e.sim.geminiBaseUrl}/models/${model}:${method}`, {
    method: 'POST',
    headers: { 'x-goog-api-key': SIM_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

describe('gemini channel: embeddings', () => {
  it('base64 (the SDK’s default) and float: the vectors Gemini’s batchEmbedContents gives, in input order', async () => {
    const texts = ['alpha beta', 'gamma delta epsilon', 'zeta'];
    const model = 'text-embedding-004';
    const based = await e2e.sdk().embeddings.create({ model, input: texts });
    const floats = await e2e.sdk().embeddings.create({ model, input: 'only one', dimensions: 64, encoding_format: 'float' });
    expect(based.data.map((item) => [item.index, item.embedding])).toEqual(texts.map((text, index) => [index, embeddingVector(text, 768)]));
    expect(floats.data.map((item) => item.embedding)).toEqual([embeddingVector('only one', 64)]);
    expect(based.model).toBe(model);
    const raw = JSON.parse(await e2e.exchanges[0]!.text) as { data: Array<{ embedding: unknown }> };
    expect(raw.data.map((item) => typeof item.embedding)).toEqual(['string', 'string', 'string']);

    // What the relay sent, and what the simulator's Gemini route answers for it.
    const [batch, shortened] = geminiCalls('batchEmbedContents');
    expect(batch?.path).toBe('/v1beta/models/text-embedding-004:batchEmbedContents');
    expect(shortened?.body).toEqual({ requests: [{ model: `models/${model}`, content: { parts: [{ text: 'only one' }] }, outputDimensionality: 64 }] });
    const direct = await geminiDirect<{ embeddings: Array<{ values: number[] }> }>(model, 'batchEmbedContents', batch?.body);
    expect(direct.embeddings.map((embedding) => embedding.values)).toEqual(based.data.map((item) => item.embedding));
    expect(await expectAnswersValid(e2e.exchanges)).toEqual(['CreateEmbeddingResponse', 'CreateEmbeddingResponse']);

    // Gemini counts no tokens here: the relay counted the inputs, and said so in the answer too.
    const rows = await usageRowsOfExchanges(e2e);
    expect(rows.map(rowSummary)).toEqual(Array(2).fill({ endpoint: 'embeddings', requestedModel: model, status: 200, units: 0, stream: false }));
    expect(rows.map((row) => [row?.promptTokens, row?.usageEstimated])).toEqual([
      [based.usage.prompt_tokens, true],
      [floats.usage.prompt_tokens, true],
    ]);
    expect(based.usage.prompt_tokens).toBeGreaterThan(0);
  });
});

describe('gemini channel: images.generate', () => {
  it('imagen-4.0-generate-001 with n=2 (:predict) and gemini-2.5-flash-image (generateContent): b64_json PNGs, one unit each', async () => {
    const imagen = await e2e.sdk().images.generate({ model: 'imagen-4.0-generate-001', prompt: 'a fox in snow', n: 2 });
    const [predict] = geminiCalls('predict');
    expect(predict?.body).toEqual({ instances: [{ prompt: 'a fox in snow' }], parameters: { sampleCount: 2 } });
    const direct = await geminiDirect<{ predictions: Array<{ bytesBase64Encoded: string }> }>('imagen-4.0-generate-001', 'predict', predict?.body);
    expect(imagen.data?.map((image) => image.b64_json)).toEqual(direct.predictions.map((prediction) => prediction.bytesBase64Encoded));
    const pngs = (imagen.data ?? []).map((image) => Buffer.from(image.b64_json ?? '', 'base64'));
    expect(pngs.map(pngSize)).toEqual(Array(2).fill({ width: simImageSide, height: simImageSide }));

    const flash = await e2e.sdk().images.generate({ model: 'gemini-2.5-flash-image', prompt: 'a paper boat' });
    expect(geminiCalls('generateContent').map((request) => request.path)).toEqual(['/v1beta/models/gemini-2.5-flash-image:generateContent']);
    expect(flash.data).toHaveLength(1);
    expect(pngSize(Buffer.from(flash.data?.[0]?.b64_json ?? '', 'base64'))).toEqual({ width: simImageSide, height: simImageSide });
    expect(await expectAnswersValid(e2e.exchanges)).toEqual(['ImagesResponse', 'ImagesResponse']);

    const rows = await usageRowsOfExchanges(e2e);
    expect(rows.map(rowSummary)).toEqual([
      { endpoint: 'images', requestedModel: 'imagen-4.0-generate-001', status: 200, units: 2, stream: false },
      { endpoint: 'images', requestedModel: 'gemini-2.5-flash-image', status: 200, units: 1, stream: false },
    ]);
    // generateContent reports its tokens (1290 for the image), which the row keeps.
    expect(rows[1]?.completionTokens).toBeGreaterThanOrEqual(1290);
  });

  it('a URL cannot be had from Gemini: 400 naming response_format, nothing sent upstream', async () => {
    const asked = e2e.sdk().images.generate({ model: 'imagen-4.0-generate-001', prompt: 'a fox', response_format: 'url' });
    const error: unknown = await asked.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'response_format', code: 'unsupported_parameter' });
    expect((error as Error).message).toContain('response_format');
    expect(e2e.sim.requests).toEqual([]);
    expect(await expectAnswersValid(e2e.exchanges)).toEqual(['ErrorResponse']);
  });
});

const bridged = [
  { type: 'gemini', model: 'gemini-2.5-flash', calls: () => e2e.sim.requests.filter((request) => request.path.startsWith('/v1beta/models/gemini-2.5-flash:')) },
  { type: 'anthropic', model: 'claude-sonnet-4-5', calls: () => e2e.sim.requests.filter((request) => request.path === '/v1/messages') },
];

describe.each(bridged)('$type channel: completions bridged as one chat turn', ({ type, model, calls }) => {
  it('not streamed: the chat answer as a text_completion, max_tokens 16 by default as on OpenAI', async () => {
    const completion = await e2e.sdk().completions.create({ model, prompt: 'Hello bridge' });
    expect(completion).toMatchObject({ object: 'text_completion', model });
    expect(completion.choices.map((choice) => [choice.index, choice.text, choice.finish_reason])).toEqual([[0, 'You said: Hello bridge', 'stop']]);
    const sent = calls()[0]?.body;
    if (type === 'gemini') expect(sent).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'Hello bridge' }] }], generationConfig: { maxOutputTokens: 16 } });
    else expect(sent).toMatchObject({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello bridge' }] }], max_tokens: 16 });
    expect(await expectAnswersValid(e2e.exchanges)).toEqual(['CreateCompletionResponse']);

    const [row] = await usageRowsOfExchanges(e2e);
    expect(rowSummary(row)).toEqual({ endpoint: 'completions', requestedModel: model, status: 200, units: 0, stream: false });
    expect(row).toMatchObject({ promptTokens: completion.usage?.prompt_tokens, completionTokens: completion.usage?.completion_tokens });
    expect(row?.completionTokens).toBeGreaterThan(0);
  });

  it('streamed, with and without the usage chunk', async () => {
    const read = async (includeUsage: boolean) => {
      const stream = await e2e.sdk().completions.create({
        model,
        prompt: 'Stream the bridge',
        max_tokens: 40,
        stream: true,
        ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
      });
      const chunks = [];
      for await (const chunk of stream) chunks.push(chunk);
      return chunks;
    };
    const plain = await read(false);
    const withUsage = await read(true);
    for (const chunks of [plain, withUsage]) {
      expect(chunks.map((chunk) => chunk.choices[0]?.text ?? '').join('')).toBe('You said: Stream the bridge');
      expect(chunks.every((chunk) => chunk.object === 'text_completion' && chunk.model === model)).toBe(true);
      expect(chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter(Boolean)).toEqual(['stop']);
    }
    expect(plain.filter((chunk) => chunk.usage)).toEqual([]);
    expect(withUsage.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) } });
    expect(withUsage.slice(0, -1).filter((chunk) => chunk.usage)).toEqual([]);
    const checked = await expectAnswersValid(e2e.exchanges);
    expect(checked.length).toBe(2 + plain.length + withUsage.length);

    const rows = await usageRowsOfExchanges(e2e);
    expect(rows.map(rowSummary)).toEqual(Array(2).fill({ endpoint: 'completions', requestedModel: model, status: 200, units: 0, stream: true }));
    const usage = withUsage.at(-1)?.usage;
    // The same prompt and answer cost the same whether or not the caller asked to see it.
    expect(rows.map((row) => [row?.promptTokens, row?.completionTokens])).toEqual(Array(2).fill([usage?.prompt_tokens, usage?.completion_tokens]));
  });

  it('echo: true cannot be bridged: 400 naming echo, nothing sent upstream', async () => {
    const error: unknown = await e2e
      .sdk()
      .completions.create({ model, prompt: 'Hello', echo: true })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'echo', code: 'unsupported_parameter' });
    expect((error as Error).message).toContain('echo');
    expect(calls()).toEqual([]);
    expect(await expectAnswersValid(e2e.exchanges)).toEqual(['ErrorResponse']);
  });
});
