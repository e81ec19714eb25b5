import { createOpenAI } from '@ai-sdk/openai';
import { OpenAIEmbeddings } from '@langchain/openai';
import { embeddingVector } from '@chat-relay/upstream-sim';
import { embed, embedMany } from 'ai';
import {
  expectAnswersValid,
  prepareSpec,
  PREPARE_SPEC_MS,
  rowSummary,
  startEndpointsRelay,
  usageRowsOfExchanges,
  type EndpointsE2e,
} from './endpoints-sdk-e2e';

/**
 * Embeddings through the relay as the two most used frameworks ask for them: the Vercel AI SDK
 * (`ai` + `@ai-sdk/openai`, which asks floats) and LangChain's `OpenAIEmbeddings` (the official
 * SDK underneath, which asks base64 and decodes it). Either way the numbers are the simulator's.
 */

const MODEL = 'text-embedding-3-small';

let e2e: EndpointsE2e;
beforeAll(async () => {
  prepareSpec();
  e2e = await startEndpointsRelay();
  await e2e.addChannel(e2e.sim.baseUrl, { name: 'openai, every model', models: ['*'] });
}, PREPARE_SPEC_MS);
afterAll(() => e2e.close());
beforeEach(() => e2e.forget());

const sentEncodings = () => e2e.sim.requests.map((request) => (request.body as { encoding_format?: string }).encoding_format);

describe('Vercel AI SDK', () => {
  const openai = () => createOpenAI({ apiKey: e2e.token, baseURL: `${e2e.url}/v1`, fetch: e2e.capture });

  it('embed and embedMany with openai.embedding: the simulator’s vectors, in order, with the token count', async () => {
    const single = await embed({ model: openai().embedding(MODEL), value: 'sunny day at the beach', maxRetries: 0 });
    expect(single.embedding).toEqual(embeddingVector('sunny day at the beach', 1536));
    expect(single.usage.tokens).toBe(5);
    const values = ['rainy night', 'snow on the hills', 'rainy night'];
    const many = await embedMany({ model: openai().embedding(MODEL), values, maxRetries: 0 });
    expect(many.embeddings).toEqual(values.map((value) => embeddingVector(value, 1536)));
    expect(many.usage.tokens).toBe(8);
    expect(sentEncodings()).toEqual(['float', 'float']);
    expect(await expectAnswersValid(e2e.exchanges)).toEqual(['CreateEmbeddingResponse', 'CreateEmbeddingResponse']);

    const rows = await usageRowsOfExchanges(e2e);
    expect(rows.map(rowSummary)).toEqual(Array(2).fill({ endpoint: 'embeddings', requestedModel: MODEL, status: 200, units: 0, stream: false }));
    expect(rows.map((row) => row?.promptTokens)).toEqual([5, 8]);
  });
});

describe('LangChain OpenAIEmbeddings', () => {
  const embeddings = (dimensions?: number) =>
    new OpenAIEmbeddings({
      model: MODEL,
      apiKey: e2e.token,
      maxRetries: 0,
      ...(dimensions !== undefined ? { dimensions } : {}),
      configuration: { baseURL: `${e2e.url}/v1`, fetch: e2e.capture },
    });

  it('embedQuery and embedDocuments (with dimensions): the simulator’s vectors, decoded from base64', async () => {
    expect(await embeddings().embedQuery('where is the library')).toEqual(embeddingVector('where is the library', 1536));
    const documents = ['The library opens at nine.', 'Books are due in two weeks.', 'Quiet please'];
    expect(await embeddings(128).embedDocuments(documents)).toEqual(documents.map((document) => embeddingVector(document, 128)));
    expect(sentEncodings()).toEqual(['base64', 'base64']);
    expect(e2e.sim.requests[1]?.body).toMatchObject({ input: documents, dimensions: 128 });
    expect(await expectAnswersValid(e2e.exchanges)).toEqual(['CreateEmbeddingResponse', 'CreateEmbeddingResponse']);

    const rows = await usageRowsOfExchanges(e2e);
    expect(rows.map(rowSummary)).toEqual(Array(2).fill({ endpoint: 'embeddings', requestedModel: MODEL, status: 200, units: 0, stream: false }));
  });
});
