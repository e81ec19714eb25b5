import { ANTHROPIC_VERSION, CLAUDE } from '../../test/e2e/anthropic-e2e';
import { startEndpointsRelay, type EndpointsE2e } from '../../test/e2e/endpoints-e2e';
import { UpstreamClient } from '../channels/upstream/upstream-client';
import { attempt } from './attempt';

// Every importer of the module gets the same function, counted: the relay runs in this process.
jest.mock('./attempt', () => {
  const actual: typeof import('./attempt') = jest.requireActual('./attempt');
  return { ...actual, attempt: jest.fn(actual.attempt) };
});
const attempts = jest.mocked(attempt);

/**
 * Issue 27: one attempt function posts every relayed request upstream. A bridged chat, an
 * embeddings call, speech bytes and a Messages request passed through to an `anthropic` channel
 * each go through `attempt` once, and every post the upstream client makes for them comes from it.
 */
describe('pipeline: one attempt for chat, endpoints, bytes and passthrough (issue 27)', () => {
  let e2e: EndpointsE2e;
  let posts: jest.SpyInstance;

  beforeAll(async () => {
    e2e = await startEndpointsRelay({ models: ['gpt-4o', 'text-embedding-3-small', 'tts-1'], endpoints: ['chat', 'embeddings', 'audio_speech'] });
    await e2e.addChannel(e2e.sim.anthropicBaseUrl, { type: 'anthropic', models: [CLAUDE] });
  });

  beforeEach(() => {
    attempts.mockClear();
    posts = jest.spyOn(UpstreamClient.prototype, 'post');
  });

  afterEach(() => {
    posts.mockRestore();
  });

  afterAll(async () => {
    await e2e.close();
  });

  /** The one attempt made, its outcome, and that the only upstream post was its own. */
  async function expectOneAttempt(): Promise<{ ok: boolean }> {
    expect(attempts).toHaveBeenCalledTimes(1);
    expect(posts).toHaveBeenCalledTimes(1);
    const outcome = (await attempts.mock.results[0]?.value) as { ok: boolean };
    expect(outcome.ok).toBe(true);
    return outcome;
  }

  it('a chat completion', async () => {
    const answer = await e2e.postJson('/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.status).toBe(200);
    await expectOneAttempt();
  });

  it('a streamed chat completion', async () => {
    const answer = await e2e.postJson('/v1/chat/completions', { model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.status).toBe(200);
    expect(answer.bytes.toString('utf8')).toContain('data: [DONE]');
    await expectOneAttempt();
  });

  it('embeddings', async () => {
    const answer = await e2e.postJson('/v1/embeddings', { model: 'text-embedding-3-small', input: 'hello world' });
    expect(answer.status).toBe(200);
    await expectOneAttempt();
  });

  it('speech, passed through as bytes', async () => {
    const answer = await e2e.postJson('/v1/audio/speech', { model: 'tts-1', input: 'Hello there.', voice: 'alloy', response_format: 'wav' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('audio/wav');
    expect(answer.bytes.length).toBeGreaterThan(44);
    await expectOneAttempt();
  });

  it('a Messages request passed through to an anthropic channel', async () => {
    const answer = await e2e.postJson(
      '/v1/messages',
      { model: CLAUDE, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] },
      { 'x-api-key': e2e.token, 'anthropic-version': ANTHROPIC_VERSION },
    );
    expect(answer.status).toBe(200);
    expect((answer.json as { type: string }).type).toBe('message');
    await expectOneAttempt();
    expect(e2e.sim.requests.at(-1)?.path).toBe('/v1/messages');
  });

  it('the usage of each lands on its row through the one accounting', async () => {
    await e2e.postJson('/v1/embeddings', { model: 'text-embedding-3-small', input: 'hello world' });
    const rows = await e2e.usageRows(6);
    expect(rows.map((row) => row.endpoint)).toEqual(['chat', 'chat', 'embeddings', 'audio_speech', 'chat', 'embeddings']);
    expect(rows.every((row) => row.status === 200 && row.attempts === 1)).toBe(true);
    expect(rows.find((row) => row.endpoint === 'audio_speech')?.units).toBe('Hello there.'.length);
  });
});
