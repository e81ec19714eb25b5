import type { Channel, CompletionRequest, RerankResponse } from '@chat-relay/contract';
import { answerPrompt, embeddingVector, rerankScore, simImageSide, simPng } from '@chat-relay/upstream-sim';
import type { EmbeddingCreateParams } from 'openai/resources/embeddings';
import {
  expectAnswersValid,
  pngSize,
  prepareSpec,
  PREPARE_SPEC_MS,
  rowSummary,
  sseData,
  startEndpointsRelay,
  usageRowsOfExchanges,
  type EndpointsE2e,
} from './endpoints-sdk-e2e';

/**
 * The official `openai` SDK (v6) on the relay's JSON endpoints beside chat, passed through an
 * `openai` channel serving every model, and rerank through a channel that declares it: what the
 * SDK gets equals what the simulator computes, every answer is valid per OpenAI's description
 * (rerank per the relay's contract), and each call writes one usage row with its endpoint and units.
 */

let e2e: EndpointsE2e;
let rerankChannel: Channel;
beforeAll(async () => {
  prepareSpec();
  e2e = await startEndpointsRelay();
  await e2e.addChannel(e2e.sim.baseUrl, { name: 'openai, every model', models: ['*'] });
  rerankChannel = await e2e.addChannel(e2e.sim.baseUrl, { name: 'rerank server', models: ['rerank-*'], endpoints: ['rerank'] });
}, PREPARE_SPEC_MS);
afterAll(() => e2e.close());
beforeEach(() => e2e.forget());

const EMBEDDING_MODEL = 'text-embedding-3-small';
const sentBodies = (path: string) => e2e.sim.requests.filter((request) => request.path === path).map((request) => request.body);

describe('embeddings.create', () => {
  const embed = async (params: EmbeddingCreateParams) => (await e2e.sdk().embeddings.create(params)).data.map((item) => item.embedding);

  it('a string, strings, token ids and dimensions: base64 asked and decoded by the SDK, each the simulator’s vector in input order', async () => {
    expect(await embed({ model: EMBEDDING_MODEL, input: 'The quick brown fox' })).toEqual([embeddingVector('The quick brown fox', 1536)]);
    const texts = ['alpha beta', 'gamma', 'delta epsilon zeta'];
    expect(await embed({ model: EMBEDDING_MODEL, input: texts, dimensions: 256 })).toEqual(texts.map((text) => embeddingVector(text, 256)));
    expect(await embed({ model: EMBEDDING_MODEL, input: [7, 8, 9] })).toEqual([embeddingVector('7 8 9', 1536)]);
    expect(await embed({ model: EMBEDDING_MODEL, input: [[1, 2, 3], [40, 50]] })).toEqual([embeddingVector('1 2 3', 1536), embeddingVector('40 50', 1536)]);

    // The SDK asked base64 every time, and the relay answered base64 as the simulator did.
    expect(sentBodies('/v1/embeddings').map((body) => (body as { encoding_format?: string }).encoding_format)).toEqual(['base64', 'base64', 'base64', 'base64']);
    const raw = JSON.parse(await e2e.exchanges[1]!.text) as { data: Array<{ embedding: unknown }>; model: string };
    expect(raw.data.map((item) => typeof item.embedding)).toEqual(['string', 'string', 'string']);
    expect(raw.model).toBe(EMBEDDING_MODEL);
    expect(await expectAnswersValid(e2e.exchanges)).toEqual(Array(4).fill('CreateEmbeddingResponse'));

    const rows = await usageRowsOfExchanges(e2e);
    expect(rows.map(rowSummary)).toEqual(Array(4).fill({ endpoint: 'embeddings', requestedModel: EMBEDDING_MODEL, status: 200, units: 0, stream: false }));
    // The simulator counts words and token ids; the relay records its count.
    expect(rows.map((row) => row?.promptTokens)).toEqual([4, 6, 3, 5]);
  });

  it('encoding_format float: numbers on the wire, the same vectors', async () => {
    const answer = await e2e.sdk().embeddings.create({ model: EMBEDDING_MODEL, input: ['one fish', 'two fish'], encoding_format: 'float' });
    expect(answer.data.map((item) => [item.index, item.embedding])).toEqual([
      [0, embeddingVector('one fish', 1536)],
      [1, embeddingVector('two fish', 1536)],
    ]);
    expect(answer.usage).toEqual({ prompt_tokens: 4, total_tokens: 4 });
    const raw = JSON.parse(await e2e.exchanges[0]!.text) as { data: Array<{ embedding: unknown }> };
    expect(Array.isArray(raw.data[0]?.embedding)).toBe(true);
    expect(await expectAnswersValid(e2e.exchanges)).toEqual(['CreateEmbeddingResponse']);
  });
});

describe('completions.create', () => {
  const MODEL = 'gpt-3.5-turbo-instruct';
  const expected = (request: CompletionRequest) => answerPrompt(request, { text: String(request.prompt), tokens: 0 });

  it('not streamed: the simulator’s answer, cut at max_tokens with finish_reason length', async () => {
    const whole = await e2e.sdk().completions.create({ model: MODEL, prompt: 'Hello relay', max_tokens: 30 });
    expect(whole.choices.map((choice) => [choice.text, choice.finish_reason])).toEqual([['You said: Hello relay', 'stop']]);
    expect(whole.model).toBe(MODEL);
    const cut = await e2e.sdk().completions.create({ model: MODEL, prompt: 'Tell me everything about the sea', max_tokens: 3 });
    const { text, finishReason } = expected({ model: MODEL, prompt: 'Tell me everything about the sea', max_tokens: 3 });
    expect(finishReason).toBe('length');
    expect(cut.choices.map((choice) => [choice.text, choice.finish_reason])).toEqual([[text, 'length']]);
    expect(await expectAnswersValid(e2e.exchanges)).toEqual(['CreateCompletionResponse', 'CreateCompletionResponse']);

    const rows = await usageRowsOfExchanges(e2e);
    expect(rows.map(rowSummary)).toEqual(Array(2).fill({ endpoint: 'completions', requestedModel: MODEL, status: 200, units: 0, stream: false }));
    expect(rows.map((row) => [row?.promptTokens, row?.completionTokens])).toEqual([
      [whole.usage?.prompt_tokens, whole.usage?.completion_tokens],
      [cut.usage?.prompt_tokens, 3],
    ]);
  });

  it('streamed: the text in chunks; the usage chunk only with stream_options.include_usage', async () => {
    const read = async (includeUsage: boolean) => {
      const stream = await e2e.sdk().completions.create({
        model: MODEL,
        prompt: 'Stream this please',
        stream: true,
        ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
      });
      const chunks = [];
      for await (const chunk of stream) chunks.push(chunk);
      return chunks;
    };
    const plain = await read(false);
    const withUsage = await read(true);
    const textOf = (chunks: typeof plain) => chunks.map((chunk) => chunk.choices[0]?.text ?? '').join('');
    expect(textOf(plain)).toBe('You said: Stream this please');
    expect(textOf(withUsage)).toBe('You said: Stream this please');
    expect(plain.filter((chunk) => chunk.usage)).toEqual([]);
    expect(plain.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    const last = withUsage.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toEqual({ prompt_tokens: 3, completion_tokens: expect.any(Number), total_tokens: expect.any(Number) });
    expect(withUsage.slice(0, -1).every((chunk) => chunk.usage === null || chunk.usage === undefined)).toBe(true);

    const checked = await expectAnswersValid(e2e.exchanges);
    expect(checked.filter((kind) => kind === '[DONE] last')).toHaveLength(2);
    expect(checked.length).toBe(2 + plain.length + withUsage.length);
    expect(sseData(await e2e.exchanges[0]!.text).filter((data) => data.includes('"usage":{'))).toEqual([]);

    const rows = await usageRowsOfExchanges(e2e);
    expect(rows.map(rowSummary)).toEqual(Array(2).fill({ endpoint: 'completions', requestedModel: MODEL, status: 200, units: 0, stream: true }));
    expect(rows[1]).toMatchObject({ promptTokens: last?.usage?.prompt_tokens, completionTokens: last?.usage?.completion_tokens, usageEstimated: false });
    // Without the usage chunk the relay still records what was used (asked of the upstream, or counted).
    expect(rows[0]).toMatchObject({ promptTokens: last?.usage?.prompt_tokens, completionTokens: last?.usage?.completion_tokens });
  });
});

describe('moderations.create', () => {
  it('text, and text with an image part: the flagged categories and the input types they applied to', async () => {
    const text = await e2e.sdk().moderations.create({ input: 'I hate mondays' });
    expect(text.model).toBe('omni-moderation-latest');
    expect(text.results.map((result) => [result.flagged, result.categories.hate, result.categories.violence])).toEqual([[true, true, false]]);
    const image = `data:image/png;base64,${simPng('moderated').toString('base64')}`;
    const parts = await e2e.sdk().moderations.create({
      model: 'omni-moderation-2024-09-26',
      input: [
        { type: 'text', text: 'they want to kill' },
        { type: 'image_url', image_url: { url: image } },
      ],
    });
    expect(parts.results).toHaveLength(1);
    expect(parts.results[0]?.categories.violence).toBe(true);
    expect(parts.results[0]?.category_applied_input_types.violence).toEqual(['text', 'image']);
    expect(parts.results[0]?.category_applied_input_types.harassment).toEqual(['text']);
    expect(sentBodies('/v1/moderations')[1]).toMatchObject({ input: [{ type: 'text' }, { type: 'image_url', image_url: { url: image } }] });
    expect(await expectAnswersValid(e2e.exchanges)).toEqual(['CreateModerationResponse', 'CreateModerationResponse']);

    const rows = await usageRowsOfExchanges(e2e);
    expect(rows.map(rowSummary)).toEqual([
      { endpoint: 'moderations', requestedModel: 'omni-moderation-latest', status: 200, units: 0, stream: false },
      { endpoint: 'moderations', requestedModel: 'omni-moderation-2024-09-26', status: 200, units: 0, stream: false },
    ]);
    // OpenAI counts no tokens here: the relay counted the text (the image is not counted).
    expect(rows.map((row) => [row?.promptTokens, row?.usageEstimated])).toEqual([
      [expect.any(Number), true],
      [expect.any(Number), true],
    ]);
    expect(rows.every((row) => (row?.promptTokens ?? 0) > 0)).toBe(true);
  });
});

describe('images.generate', () => {
  it('dall-e-3 answers a URL to a PNG the simulator serves; gpt-image-1 answers b64_json PNGs', async () => {
    const dalle = await e2e.sdk().images.generate({ model: 'dall-e-3', prompt: 'a lighthouse at dusk' });
    const url = dalle.data?.[0]?.url ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/img-[0-9a-f]{32}\.png$/);
    expect(dalle.data?.[0]?.revised_prompt).toBe('a lighthouse at dusk');
    const served = await fetch(url);
    expect(pngSize(Buffer.from(await served.arrayBuffer()))).toEqual({ width: simImageSide, height: simImageSide });

    const gpt = await e2e.sdk().images.generate({ model: 'gpt-image-1', prompt: 'a red kite', n: 2, quality: 'low' });
    const pngs = (gpt.data ?? []).map((image) => Buffer.from(image.b64_json ?? '', 'base64'));
    expect(pngs.map(pngSize)).toEqual(Array(2).fill({ width: simImageSide, height: simImageSide }));
    expect(pngs[0]?.equals(pngs[1]!)).toBe(false);
    expect(gpt).toMatchObject({ quality: 'low', size: '1024x1024', output_format: 'png' });
    expect(await expectAnswersValid(e2e.exchanges)).toEqual(['ImagesResponse', 'ImagesResponse']);

    const rows = await usageRowsOfExchanges(e2e);
    expect(rows.map(rowSummary)).toEqual([
      { endpoint: 'images', requestedModel: 'dall-e-3', status: 200, units: 1, stream: false },
      { endpoint: 'images', requestedModel: 'gpt-image-1', status: 200, units: 2, stream: false },
    ]);
    expect(rows[1]).toMatchObject({ promptTokens: gpt.usage?.input_tokens, completionTokens: gpt.usage?.output_tokens });
  });
});

describe('rerank through client.post', () => {
  it('is served by the channel declaring rerank: results best first by word overlap, cut at top_n, with documents', async () => {
    const query = 'the cat';
    const documents = ['stock prices fell', 'the cat sat on the mat', 'a cat and a dog', 'dogs chase cats', 'the cat'];
    const model = 'rerank-english-v3.0';
    const { data, response } = await e2e
      .sdk()
      .post<RerankResponse>('/rerank', { body: { model, query, documents, top_n: 3, return_documents: true } })
      .withResponse();
    expect(response.status).toBe(200);
    const expected = documents
      .map((text, index) => ({ index, relevance_score: rerankScore(query, text), document: { text } }))
      .sort((first, second) => second.relevance_score - first.relevance_score)
      .slice(0, 3);
    expect(data.results).toEqual(expected);
    expect(data.results[0]).toEqual({ index: 4, relevance_score: 1, document: { text: 'the cat' } });
    expect(data.model).toBe(model);
    expect(await expectAnswersValid(e2e.exchanges)).toEqual(['RerankResponseSchema']);

    const [row] = await usageRowsOfExchanges(e2e);
    expect(rowSummary(row)).toEqual({ endpoint: 'rerank', requestedModel: model, status: 200, units: 1, stream: false });
    expect(row?.channelId).toBe(rerankChannel.id);
  });
});
