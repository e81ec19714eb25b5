import type { ChatCompletion, ModelList } from '@chat-relay/contract';
import { ResponseValidationError, UnknownStatusError } from '@ts-rest/core';
import { readOpenAiFixture, sendJson, startRelayTestServer, type RelayTestServer } from '../testing/relay-test-server';
import { createRelayClient, type NonStreamingChatCompletionRequest, type RelayClient } from './create-relay-client';
import { RelayApiError } from './relay-api-error';

const completion = JSON.parse(readOpenAiFixture('chat-completion-text.json').toString('utf8')) as ChatCompletion;
const request: NonStreamingChatCompletionRequest = {
  model: 'gpt-4.1-nano',
  messages: [{ role: 'user', content: 'Invent a holiday.' }],
  temperature: 0.2,
};
const models: ModelList = {
  object: 'list',
  data: [{ id: 'gpt-4o', object: 'model', created: 1715367049, owned_by: 'system' }],
};
const unauthorized = {
  error: { message: 'Incorrect API key provided', type: 'authentication_error', param: null, code: 'invalid_api_key' },
};
const token = {
  id: 7,
  account_id: 1,
  name: 'ci',
  status: 'active',
  key_hint: 'Ab12',
  expires_at: null,
  quota_limit: null,
  quota_used: 0,
  models: null,
  allowed_ips: null,
  rate_limit: null,
  created_at: '2025-01-01T00:00:00.000Z',
  last_used_at: null,
};

let server: RelayTestServer;
let client: RelayClient;

beforeAll(async () => {
  server = await startRelayTestServer();
  // A trailing slash must not turn paths into `//v1/...`.
  client = createRelayClient({ baseUrl: `${server.baseUrl}/`, apiKey: 'sk-test-key' });
});
afterAll(() => server.close());
beforeEach(() => server.requests.splice(0));

describe('the typed ts-rest api over axios', () => {
  it('createChatCompletion answers a typed 200 body and sends the JSON request with the bearer key', async () => {
    server.handle((_req, res) => sendJson(res, 200, completion, { 'x-request-id': 'req_1' }));

    const response = await client.api.chat.createChatCompletion({ body: request });

    expect(response.status).toBe(200);
    if (response.status !== 200) throw new Error('narrowing');
    expect(response.body.choices[0]!.message.content).toMatch(/^\*\*Holiday Name:\*\* Galaxy Day/);
    expect(response.body.usage).toMatchObject({ prompt_tokens: 16, completion_tokens: 363, total_tokens: 379 });
    expect(response.headers.get('x-request-id')).toBe('req_1');
    const [seen] = server.requests;
    expect(seen).toMatchObject({ method: 'POST', url: '/v1/chat/completions' });
    expect(seen!.headers.authorization).toBe('Bearer sk-test-key');
    expect(seen!.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(seen!.body)).toEqual(request);
  });

  it('listModels answers the typed model list from GET /v1/models', async () => {
    server.handle((_req, res) => sendJson(res, 200, models));

    const response = await client.api.chat.listModels();

    expect(response).toMatchObject({ status: 200, body: models });
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/v1/models' });
  });

  it('an error status is a typed member of the union, not an exception', async () => {
    server.handle((_req, res) => sendJson(res, 401, unauthorized));

    const response = await client.api.chat.listModels();

    expect(response.status).toBe(401);
    if (response.status !== 401) throw new Error('narrowing');
    expect(response.body.error.code).toBe('invalid_api_key');
  });

  it('createToken posts the body and answers 201; deleteToken answers 204 without a body', async () => {
    server.handle((req, res) => {
      if (req.method === 'POST') return sendJson(res, 201, { ...token, key: `sk-${'a'.repeat(48)}` });
      res.writeHead(204).end();
    });

    const created = await client.api.tokens.createToken({ body: { name: 'ci' } });
    const deleted = await client.api.tokens.deleteToken({ params: { id: 7 } });

    expect(created.status).toBe(201);
    if (created.status !== 201) throw new Error('narrowing');
    expect(created.body.key).toHaveLength(51);
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ name: 'ci' });
    expect(deleted).toMatchObject({ status: 204, body: undefined });
    expect(server.requests[1]).toMatchObject({ method: 'DELETE', url: '/api/tokens/7' });
  });

  it('assistant CRUD comes from the contract: createAssistant posts, getAssistant reads with usage', async () => {
    const assistant = {
      id: 'g-pirate1',
      object: 'assistant',
      account_id: 1,
      name: 'Pirate',
      description: '',
      instructions: 'Arr.',
      tools: [],
      temperature: null,
      top_p: null,
      max_tokens: null,
      response_format: null,
      models: null,
      visibility: 'public',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    };
    server.handle((req, res) =>
      req.method === 'POST'
        ? sendJson(res, 201, assistant)
        : sendJson(res, 200, { ...assistant, usage: { requests_30d: 3, prompt_tokens_30d: 9, completion_tokens_30d: 4 } }),
    );

    const created = await client.api.assistants.createAssistant({
      body: { id: 'g-pirate1', name: 'Pirate', instructions: 'Arr.', visibility: 'public' },
    });
    const fetched = await client.api.assistants.getAssistant({ params: { id: 'g-pirate1' } });

    expect(created.status).toBe(201);
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/api/assistants' });
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ id: 'g-pirate1', name: 'Pirate', instructions: 'Arr.', visibility: 'public' });
    if (fetched.status !== 200) throw new Error('narrowing');
    expect(fetched.body.usage.requests_30d).toBe(3);
    expect(server.requests[1]).toMatchObject({ method: 'GET', url: '/api/assistants/g-pirate1' });
  });

  it('a status the contract does not list throws UnknownStatusError', async () => {
    server.handle((_req, res) => sendJson(res, 418, { teapot: true }));

    await expect(client.api.chat.listModels()).rejects.toBeInstanceOf(UnknownStatusError);
  });

  it('validateResponse checks bodies against the contract', async () => {
    const validating = createRelayClient({ baseUrl: server.baseUrl, apiKey: 'sk-test-key', validateResponse: true });
    server.handle((_req, res) => sendJson(res, 200, { object: 'list', data: [{ id: 'gpt-4o' }] }));

    await expect(validating.api.chat.listModels()).rejects.toBeInstanceOf(ResponseValidationError);
  });
});

describe('createChatCompletion (convenience)', () => {
  it('returns the completion on 200', async () => {
    server.handle((_req, res) => sendJson(res, 200, completion));

    const result = await client.createChatCompletion(request);

    expect(result).toEqual(completion);
  });

  it('throws RelayApiError with the OpenAI fields and the request id on 401', async () => {
    server.handle((_req, res) => sendJson(res, 401, unauthorized, { 'x-request-id': 'req_401' }));

    const error: unknown = await client.createChatCompletion(request).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(RelayApiError);
    expect(error).toMatchObject({ status: 401, ...unauthorized.error, requestId: 'req_401' });
  });

  it('throws RelayApiError for a status outside the contract, keeping a non-JSON body in the message', async () => {
    server.handle((_req, res) => {
      res.writeHead(405, { 'content-type': 'text/plain' }).end('Method Not Allowed');
    });

    const error: unknown = await client.createChatCompletion(request).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(RelayApiError);
    expect(error).toMatchObject({ status: 405, type: 'api_error', code: null });
    expect((error as Error).message).toContain('Method Not Allowed');
  });

  it('throws invalid_response when a 200 body is not a chat.completion', async () => {
    server.handle((_req, res) => sendJson(res, 200, { ...completion, object: 'chat.completion.chunk' }));

    await expect(client.createChatCompletion(request)).rejects.toMatchObject({ code: 'invalid_response', status: 502 });
  });

  it('refuses stream: true instead of returning SSE text as a completion', async () => {
    const streaming = { ...request, stream: true } as unknown as NonStreamingChatCompletionRequest;

    await expect(client.createChatCompletion(streaming)).rejects.toBeInstanceOf(TypeError);
    expect(server.requests).toHaveLength(0);
  });

  it('abort() rejects with an AbortError and closes the request socket', async () => {
    server.handle(() => undefined); // never answers
    const controller = new AbortController();

    const pending = client.createChatCompletion(request, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();

    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(server.requests[0]!.socketClosed).resolves.toEqual({ responseEnded: false });
  });

  it('timeoutMs gives up on a relay that does not answer', async () => {
    // Long enough for the request to reach the server on a loaded CI machine (50 ms was not, once).
    const impatient = createRelayClient({ baseUrl: server.baseUrl, apiKey: 'sk-test-key', timeoutMs: 500 });
    server.handle(() => undefined); // never answers

    await expect(impatient.createChatCompletion(request)).rejects.toMatchObject({ message: 'timeout of 500ms exceeded' });
    await expect(server.requests[0]!.socketClosed).resolves.toEqual({ responseEnded: false });
  });
});
