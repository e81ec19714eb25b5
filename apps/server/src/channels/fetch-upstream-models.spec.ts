import { RelayError } from '@chat-relay/wire';
import type { ChannelRecord } from '../storage/types';
import { closedPort } from '../../test/testing/closed-port';
import { startModelListUpstream, type ListAnswer, type ListRequest, type ModelListUpstream } from '../../test/testing/model-list-upstream';
import { fetchUpstreamModels, geminiEndpoints, MODEL_LIST_MAX_PAGES } from './fetch-upstream-models';
import { UpstreamClient } from './upstream/upstream-client';

const KEY = 'sk-list-secret-0123456789abcdef';
const OTHER_KEY = 'sk-list-other-fedcba9876543210';

const channelOn = (baseUrl: string, overrides: Partial<ChannelRecord> = {}): ChannelRecord => ({
  id: 1,
  name: 'list',
  type: 'openai',
  baseUrl,
  keys: [KEY],
  keyStates: [],
  models: ['*'],
  modelMapping: {},
  priority: 0,
  weight: 1,
  enabled: true,
  timeouts: { connectMs: 2000, firstByteMs: 2000, idleMs: 2000 },
  responsesApi: 'auto',
  endpoints: null,
  syncedModels: null,
  modelsSyncedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

/** The failure, as a RelayError, of a fetch that must fail. */
async function failureOf(promise: Promise<unknown>): Promise<RelayError> {
  const outcome = await promise.then(
    () => new Error('the fetch succeeded'),
    (error: unknown) => error,
  );
  if (!(outcome instanceof RelayError)) throw outcome;
  return outcome;
}

describe('fetchUpstreamModels', () => {
  const client = new UpstreamClient();
  let upstream: ModelListUpstream | undefined;
  const serve = async (answer: (request: ListRequest, index: number) => ListAnswer) => {
    upstream = await startModelListUpstream(answer);
    return upstream;
  };
  afterEach(async () => {
    await upstream?.close();
    upstream = undefined;
  });
  afterAll(() => client.close());

  describe('openai', () => {
    it('reads data[].id with the Bearer key, deduplicated and sorted, endpoints left to the channel', async () => {
      const server = await serve(() => ({ json: { object: 'list', data: [{ id: 'o3', object: 'model' }, { id: 'gpt-4o' }, { id: 'o3' }] } }));
      const models = await fetchUpstreamModels(client, channelOn(`${server.origin}/v1`));
      expect(models).toEqual([
        { id: 'gpt-4o', endpoints: null },
        { id: 'o3', endpoints: null },
      ]);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/v1/models', headers: { authorization: `Bearer ${KEY}` } });
    });

    it('takes a bare array as some OpenAI-compatible servers answer', async () => {
      const server = await serve(() => ({ json: [{ id: 'meta-llama/Llama-3-70b' }] }));
      expect(await fetchUpstreamModels(client, channelOn(`${server.origin}/v1`))).toEqual([{ id: 'meta-llama/Llama-3-70b', endpoints: null }]);
    });

    it("uses the channel's first active key", async () => {
      const server = await serve(() => ({ json: { data: [] } }));
      const channel = channelOn(`${server.origin}/v1`, {
        keys: [OTHER_KEY, KEY],
        keyStates: [
          { status: 'disabled', reason: 'revoked', changedAt: '2026-01-01T00:00:00.000Z' },
          { status: 'active', reason: null, changedAt: null },
        ],
      });
      await fetchUpstreamModels(client, channel);
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    });

    it('refuses a channel whose keys are all disabled, without calling the upstream', async () => {
      const server = await serve(() => ({ json: { data: [] } }));
      const disabled = { status: 'disabled' as const, reason: 'revoked', changedAt: '2026-01-01T00:00:00.000Z' };
      const error = await failureOf(fetchUpstreamModels(client, channelOn(`${server.origin}/v1`, { keyStates: [disabled] })));
      expect(error).toMatchObject({ status: 400, code: 'no_active_key', param: 'keys' });
      expect(server.requests).toHaveLength(0);
    });
  });

  describe('anthropic', () => {
    it('follows has_more with after_id, with x-api-key and anthropic-version', async () => {
      const pages = [
        { data: [{ id: 'claude-sonnet-4-5', type: 'model' }, { id: 'claude-opus-4-1' }], has_more: true, first_id: 'claude-sonnet-4-5', last_id: 'claude-opus-4-1' },
        { data: [{ id: 'claude-3-5-haiku-20241022' }], has_more: false, first_id: 'claude-3-5-haiku-20241022', last_id: 'claude-3-5-haiku-20241022' },
      ];
      const server = await serve((_request, index) => ({ json: pages[index] }));
      const models = await fetchUpstreamModels(client, channelOn(`${server.origin}/v1`, { type: 'anthropic' }));
      expect(models.map((model) => model.id)).toEqual(['claude-3-5-haiku-20241022', 'claude-opus-4-1', 'claude-sonnet-4-5']);
      expect(models.every((model) => model.endpoints === null)).toBe(true);
      expect(server.requests.map((request) => request.url)).toEqual(['/v1/models?limit=1000', '/v1/models?limit=1000&after_id=claude-opus-4-1']);
      expect(server.requests[0]?.headers).toMatchObject({ 'x-api-key': KEY, 'anthropic-version': '2023-06-01' });
      expect(server.requests[0]?.headers.authorization).toBeUndefined();
    });

    it(`stops after ${MODEL_LIST_MAX_PAGES} pages of a list that never ends`, async () => {
      const server = await serve((_request, index) => ({ json: { data: [{ id: `claude-${index}` }], has_more: true, last_id: `claude-${index}` } }));
      const models = await fetchUpstreamModels(client, channelOn(`${server.origin}/v1`, { type: 'anthropic' }));
      expect(server.requests).toHaveLength(MODEL_LIST_MAX_PAGES);
      expect(models).toHaveLength(MODEL_LIST_MAX_PAGES);
    });
  });

  describe('gemini', () => {
    const geminiModel = (name: string, methods: string[]) => ({ name: `models/${name}`, displayName: name, supportedGenerationMethods: methods });

    it('follows nextPageToken, strips models/, and says what each model serves from its methods', async () => {
      const pages = [
        {
          models: [
            geminiModel('gemini-2.5-flash', ['generateContent', 'countTokens', 'createCachedContent']),
            geminiModel('text-embedding-004', ['embedContent']),
            geminiModel('gemini-embedding-001', ['embedContent', 'countTextTokens', 'batchEmbedContents']),
          ],
          nextPageToken: 'page two',
        },
        {
          models: [
            geminiModel('imagen-4.0-generate-001', ['predict']),
            geminiModel('gemini-2.5-flash-image', ['generateContent', 'countTokens']),
            geminiModel('aqa', ['generateAnswer']),
            geminiModel('veo-3.0-generate-001', ['predictLongRunning']),
            { name: 'models/no-methods' },
          ],
        },
      ];
      const server = await serve((_request, index) => ({ json: pages[index] }));
      const models = await fetchUpstreamModels(client, channelOn(`${server.origin}/v1beta`, { type: 'gemini', keys: ['AIzaSyList-secret-0123456789'] }));
      expect(models).toEqual([
        { id: 'gemini-2.5-flash', endpoints: ['chat', 'completions'] },
        { id: 'gemini-2.5-flash-image', endpoints: ['chat', 'completions', 'images'] },
        { id: 'gemini-embedding-001', endpoints: ['embeddings'] },
        { id: 'imagen-4.0-generate-001', endpoints: ['images'] },
        { id: 'text-embedding-004', endpoints: ['embeddings'] },
      ]);
      expect(server.requests.map((request) => request.url)).toEqual(['/v1beta/models?pageSize=1000', '/v1beta/models?pageSize=1000&pageToken=page%20two']);
      expect(server.requests[0]?.headers['x-goog-api-key']).toBe('AIzaSyList-secret-0123456789');
      expect(server.requests.some((request) => request.url.includes('AIza'))).toBe(false);
    });

    it('takes an empty page (no `models`) as an empty list, and stops at a page token it has seen', async () => {
      const server = await serve((_request, index) => ({ json: index === 0 ? { nextPageToken: 'again' } : { models: [geminiModel('gemini-x', ['generateContent'])], nextPageToken: 'again' } }));
      const models = await fetchUpstreamModels(client, channelOn(`${server.origin}/v1beta`, { type: 'gemini' }));
      expect(models).toEqual([{ id: 'gemini-x', endpoints: ['chat', 'completions'] }]);
      expect(server.requests).toHaveLength(2);
    });

    it('maps methods in endpoint order, whatever order they come in', () => {
      expect(geminiEndpoints('m', ['predict', 'embedContent', 'generateContent'])).toEqual(['chat', 'completions', 'embeddings', 'images']);
      expect(geminiEndpoints('m', ['countTokens'])).toEqual([]);
    });
  });

  describe('failures: a 502 that names the cause and never a key', () => {
    it('401 with the key quoted: the key was rejected, redacted', async () => {
      const server = await serve(() => ({ status: 401, json: { error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' } } }));
      const error = await failureOf(fetchUpstreamModels(client, channelOn(`${server.origin}/v1`)));
      expect(error).toMatchObject({ status: 502, type: 'upstream_error', code: 'upstream_auth_failed' });
      expect(error.message).toContain('401');
      expect(error.message).toContain('GET /v1/models');
      expect(JSON.stringify(error.toBody())).not.toContain('0123456789abcdef');
    });

    it.each([
      ['anthropic', '/v1', { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${KEY}` } }],
      ['gemini', '/v1beta', { error: { code: 400, message: `API key not valid: ${KEY}`, status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] } }],
    ] as const)('%s refusing the key', async (type, path, body) => {
      const server = await serve(() => ({ status: type === 'gemini' ? 400 : 401, json: body }));
      const error = await failureOf(fetchUpstreamModels(client, channelOn(`${server.origin}${path}`, { type })));
      expect(error).toMatchObject({ status: 502, code: 'upstream_auth_failed' });
      expect(JSON.stringify(error.toBody())).not.toContain('0123456789abcdef');
    });

    it('404 (a server without a model list) and 500 keep their status in the message, the key cut out', async () => {
      const server = await serve((_request, index) =>
        index === 0
          ? { status: 404, text: 'Not Found' }
          : { status: 500, json: { error: { message: `backend failed for key ${KEY} (escaped ${JSON.stringify(KEY).slice(1, -1)})` } } },
      );
      const notFound = await failureOf(fetchUpstreamModels(client, channelOn(`${server.origin}/v1`)));
      expect(notFound).toMatchObject({ status: 502, type: 'upstream_error' });
      expect(notFound.message).toMatch(/answered 404 to GET \/v1\/models/);
      const failed = await failureOf(fetchUpstreamModels(client, channelOn(`${server.origin}/v1`)));
      expect(failed).toMatchObject({ status: 502, code: 'upstream_500' });
      expect(failed.message).toContain('backend failed');
      expect(failed.message).not.toContain('0123456789abcdef');
    });

    it('an answer that is not JSON, or not a model list', async () => {
      const server = await serve((_request, index) => (index === 0 ? { text: '<html>hello</html>' } : { json: { data: [{ name: 'no id' }] } }));
      const notJson = await failureOf(fetchUpstreamModels(client, channelOn(`${server.origin}/v1`)));
      expect(notJson).toMatchObject({ status: 502, code: 'upstream_invalid_model_list' });
      expect(notJson.message).toContain('not JSON');
      const wrongShape = await failureOf(fetchUpstreamModels(client, channelOn(`${server.origin}/v1`)));
      expect(wrongShape).toMatchObject({ status: 502, code: 'upstream_invalid_model_list' });
      expect(wrongShape.message).toContain('data.0.id');
    });

    it('an upstream nobody listens on, and one that never answers within first_byte_ms', async () => {
      const refused = await failureOf(fetchUpstreamModels(client, channelOn(`http://127.0.0.1:${await closedPort()}/v1`)));
      expect(refused).toMatchObject({ status: 502, code: 'upstream_unreachable' });

      const server = await serve(() => ({ hang: true }));
      const slow = channelOn(`${server.origin}/v1`, { id: 2, timeouts: { connectMs: 1000, firstByteMs: 150, idleMs: 1000 } });
      const timedOut = await failureOf(fetchUpstreamModels(client, slow));
      expect(timedOut).toMatchObject({ status: 502, code: 'upstream_timeout' });
    });
  });
});
