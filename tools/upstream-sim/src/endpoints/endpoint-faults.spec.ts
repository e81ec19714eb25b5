import { CompletionSchema, ErrorResponseSchema, ModelListSchema } from '@chat-relay/contract';
import { startUpstreamSim } from '../sim-server';
import { callOpenAi, postForm, readAll, sseData, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { streamErrorEvent } from '../write-chat-stream';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const embedding = (input: string, extra: Record<string, unknown> = {}) => ({ model: 'text-embedding-3-small', input, ...extra });
const embed = (input: string, extra: Record<string, unknown> = {}, init: { signal?: AbortSignal; base?: string } = {}) =>
  callOpenAi(sim, 'POST', '/embeddings', { body: embedding(input, extra), ...init });

describe('keys and routes', () => {
  it.each([
    ['/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'x' }],
    ['/embeddings', embedding('x')],
    ['/rerank', { model: 'rerank', query: 'q', documents: ['d'] }],
    ['/moderations', { input: 'x' }],
    ['/images/generations', { prompt: 'x' }],
    ['/audio/speech', { model: 'tts-1', voice: 'alloy', input: 'x' }],
  ])('answers 401 invalid_api_key on %s without a key or with a wrong one', async (path, body) => {
    for (const key of ['', 'sk-wrong']) {
      const response = await callOpenAi(sim, 'POST', path, { body, key });
      expect(response.status).toBe(401);
      expect(ErrorResponseSchema.parse(await response.json()).error).toMatchObject({ code: 'invalid_api_key' });
    }
    expect((await callOpenAi(sim, 'POST', path, { body })).status).toBe(200);
  });

  it('answers 401 on multipart routes without a valid key', async () => {
    const response = await postForm(sim, '/audio/transcriptions', new FormData(), { key: 'sk-wrong' });
    expect(response.status).toBe(401);
  });

  it('serves the endpoints under the chat-only base URL too, recorded under it', async () => {
    const response = await embed('hello', {}, { base: sim.chatOnlyBaseUrl });
    expect(response.status).toBe(200);
    expect(sim.requests[0]).toMatchObject({ path: '/chat-only/v1/embeddings', body: embedding('hello') });
    expect(sim.requests[0]?.bodyBytes).toBe(Buffer.byteLength(JSON.stringify(embedding('hello'))));
  });

  it('lists a model for every endpoint on GET /v1/models, and answers each by id', async () => {
    const list = ModelListSchema.parse(await (await callOpenAi(sim, 'GET', '/models')).json());
    const ids = list.data.map((model) => model.id);
    for (const id of ['gpt-4o', 'gpt-4o-mini', 'text-embedding-3-small', 'text-embedding-3-large', 'omni-moderation-latest', 'dall-e-3', 'dall-e-2', 'gpt-image-1', 'tts-1', 'whisper-1', 'gpt-4o-mini-transcribe', 'gpt-3.5-turbo-instruct']) {
      expect(ids).toContain(id);
    }
    expect(await (await callOpenAi(sim, 'GET', '/models/whisper-1')).json()).toMatchObject({ id: 'whisper-1', object: 'model' });
  });
});

describe('faults on the endpoints', () => {
  it('plays failNext on any endpoint, in order, then answers', async () => {
    sim.failNext({ kind: 'status', status: 502 });
    sim.failNext({ kind: 'status', status: 429 });
    const statuses: number[] = [];
    for (const path of ['/moderations', '/embeddings', '/embeddings']) {
      const body = path === '/moderations' ? { input: 'x' } : embedding('x');
      const response = await callOpenAi(sim, 'POST', path, { body });
      await response.text();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([502, 429, 200]);
  });

  it('keeps a queued fault for a valid request: a refused one does not use it up', async () => {
    sim.failNext({ kind: 'status', status: 503 });
    expect((await embed('')).status).toBe(400);
    expect((await embed('x')).status).toBe(503);
  });

  it('cuts a non-streamed answer halfway, sends half of it as malformed, and 500s a stream-error', async () => {
    const cut = await embed('x', { x_sim: { fault: 'cut' } });
    expect(cut.status).toBe(200);
    expect((await readAll(cut)).error).toBeDefined();
    const malformed = await embed('x [sim:fault=malformed]');
    await expect(malformed.json()).rejects.toThrow();
    const streamError = await callOpenAi(sim, 'POST', '/rerank', { body: { model: 'r', query: 'q [sim:fault=stream-error]', documents: ['d'] } });
    expect(streamError.status).toBe(500);
    expect(ErrorResponseSchema.parse(await streamError.json()).error.type).toBe('server_error');
  });

  it('never answers a timeout fault: the client gives up', async () => {
    const started = Date.now();
    await expect(embed('x', { x_sim: { fault: 'timeout' } }, { signal: AbortSignal.timeout(150) })).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('waits the latency directive before answering', async () => {
    const started = Date.now();
    expect((await embed('x [sim:latency=150]')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('breaks a streamed completion as it breaks a chat stream', async () => {
    const stream = (fault: string) =>
      callOpenAi(sim, 'POST', '/completions', { body: { model: 'i', prompt: 'one two three four', stream: true, max_tokens: 20, x_sim: { fault } } });
    const errored = sseData((await readAll(await stream('stream-error'))).text);
    expect(errored).toHaveLength(3);
    expect(`data: ${errored.at(-1)}\n\n`).toBe(streamErrorEvent);
    expect(CompletionSchema.parse(JSON.parse(errored[0] ?? '')).choices[0]?.text).toBe('You');
    const cut = await readAll(await stream('cut'));
    expect(cut.error).toBeDefined();
    expect(sseData(cut.text)).toHaveLength(3);
    expect(sseData((await readAll(await stream('malformed'))).text).at(-1)).toBe('{not json');
  });

  it('answers 400 for an unknown directive, naming where it was', async () => {
    const marker = await embed('x [sim:fault=explode]');
    expect(ErrorResponseSchema.parse(await marker.json()).error.param).toBe('input');
    const body = await callOpenAi(sim, 'POST', '/images/generations', { body: { prompt: 'x', x_sim: { fault: 'explode' } } });
    expect(ErrorResponseSchema.parse(await body.json()).error.param).toBe('x_sim.fault');
  });
});
