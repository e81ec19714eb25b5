import { ChatCompletionRequestSchema } from '@chat-relay/contract';
import { CHANNEL_PROVIDERS, type UpstreamRequest, type UpstreamTarget } from '@chat-relay/wire';
import { parseSse } from '../sim-test-client';
import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';
import { createTestServiceAccount, mintTestToken } from './vertex-test-account';

/*
 * The relay's Vertex provider module against the simulated Vertex: every request it builds is
 * one the simulator (strict the way Vertex is) accepts, and every answer it reads back converts.
 * The bearer is added here, as the server adds it.
 */
const vertex = CHANNEL_PROVIDERS.vertex;
const account = createTestServiceAccount();
const key = JSON.stringify({ type: 'service_account', project_id: 'acme-prod', client_email: account.clientEmail, private_key: account.privateKeyPem, token_uri: 'https://oauth2.googleapis.com/token' });
let sim: UpstreamSim;
let token: string;
let channel: UpstreamTarget;

beforeAll(async () => {
  sim = await startUpstreamSim({ vertexServiceAccounts: { [account.clientEmail]: account.publicKeyPem } });
  token = await mintTestToken(sim.vertexTokenUri, account);
  channel = { baseUrl: sim.vertexBaseUrl, cloud: { region: 'us-east5' } };
});
afterAll(() => sim.close());

async function send(request: UpstreamRequest): Promise<{ status: number; text: string }> {
  expect(request.headers).not.toHaveProperty('x-goog-api-key');
  const response = await fetch(request.url, {
    method: request.method ?? 'POST',
    headers: { ...request.headers, authorization: `Bearer ${token}` },
    ...(request.method === 'GET' ? {} : { body: request.body as string }),
  });
  return { status: response.status, text: await response.text() };
}

const chat = (fields: Record<string, unknown>) => ChatCompletionRequestSchema.parse({ model: 'public', ...fields });
const weatherTool = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };

describe.each([
  ['Gemini', 'gemini-2.5-flash'],
  ['Claude', 'claude-sonnet-4-5@20250929'],
])('chat through the hub to %s on Vertex', (_publisher, upstreamModel) => {
  const adapter = () => vertex.chatFor?.(upstreamModel) ?? vertex.chat;

  it('answers a plain turn, and a tool round trip (the call, then its result)', async () => {
    const first = await send(adapter()!.buildRequest({ channel, key, upstreamModel, request: chat({ messages: [{ role: 'user', content: 'get the weather' }], tools: [weatherTool], max_tokens: 200 }) }));
    expect(first.status).toBe(200);
    const converted = adapter()!.convertResponse(first.text, 'public');
    if (!converted.ok) throw new Error(converted.error.message);
    const message = (converted.body['choices'] as Array<{ message: { tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> } }>)[0]?.message;
    const call = message?.tool_calls?.[0];
    expect(call?.function.name).toBe('get_weather');

    const second = await send(
      adapter()!.buildRequest({
        channel,
        key,
        upstreamModel,
        request: chat({
          messages: [
            { role: 'user', content: 'get the weather' },
            { role: 'assistant', content: null, tool_calls: [{ id: call?.id, type: 'function', function: call?.function }] },
            { role: 'tool', tool_call_id: call?.id, content: 'sunny' },
          ],
          tools: [weatherTool],
          max_tokens: 200,
        }),
      }),
    );
    expect(second.status).toBe(200);
    const answer = adapter()!.convertResponse(second.text, 'public');
    expect(answer.ok && JSON.stringify(answer.body)).toContain('sunny');
  });

  it('streams, with usage', async () => {
    const request = adapter()!.buildRequest({ channel, key, upstreamModel, request: chat({ messages: [{ role: 'user', content: 'Say hi' }], stream: true, max_tokens: 100 }) });
    const { status, text } = await send(request);
    expect(status).toBe(200);
    const transformer = adapter()!.createStreamTransformer({ publicModel: 'public', callerWantsUsage: true, secrets: [] });
    for (const event of parseSse(text)) transformer.transform(event.event ? { event: event.event, data: event.data } : { data: event.data });
    transformer.finish();
    expect(transformer.complete).toBe(true);
    expect(transformer.usage?.completionTokens).toBeGreaterThan(0);
  });

  it('bridges completions through the same publisher', async () => {
    const completions = vertex.json?.completions;
    const { status, text } = await send(completions!.buildRequest({ channel, key, upstreamModel, request: { model: 'public', prompt: 'Say hi', max_tokens: 50 } }));
    expect(status).toBe(200);
    const answer = completions!.convertResponse(text, { request: { model: 'public', prompt: 'Say hi' }, publicModel: 'public', contentType: 'application/json' });
    expect(answer.ok && answer.kind === 'json' && answer.body['object']).toBe('text_completion');
  });
});

describe('callers passed through to Vertex', () => {
  it('a Messages caller on Claude, its beta header kept, and its token count', async () => {
    const upstreamModel = 'claude-sonnet-4-5@20250929';
    const native = vertex.nativeFor?.('messages', upstreamModel);
    const body = { model: 'public', max_tokens: 100, messages: [{ role: 'user', content: 'Say hi' }] };
    const headers = { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'context-1m-2025-08-07' };
    const { status, text } = await send(native!.buildRequest({ channel, key, body, upstreamModel, headers, stream: false }));
    expect(status).toBe(200);
    const answer = native!.convertResponse(text, 'public');
    expect(answer.ok && answer.body['model']).toBe('public');
    expect(sim.requests.at(-1)?.headers['anthropic-beta']).toBe('context-1m-2025-08-07');

    const countBody = { model: 'public', messages: body.messages };
    const counted = await send(vertex.tokenCounter!.buildRequest({ channel, key, body: countBody, upstreamModel, headers, stream: false }));
    expect(counted.status).toBe(200);
    expect(JSON.parse(counted.text)).toEqual({ input_tokens: expect.any(Number) });
  });

  it('a generateContent caller on Gemini, a single turn without role', async () => {
    const native = vertex.nativeFor?.('generate_content', 'gemini-2.5-pro');
    const { status, text } = await send(native!.buildRequest({ channel, key, body: { contents: [{ parts: [{ text: 'Say hi' }] }] }, upstreamModel: 'gemini-2.5-pro', headers: {}, stream: false }));
    expect(status).toBe(200);
    expect(native!.convertResponse(text, 'public').ok).toBe(true);
  });
});

describe('embeddings and the model list on Vertex', () => {
  it('embeds through predict, with the tokens Vertex counted', async () => {
    const embeddings = vertex.json?.embeddings;
    const request = { model: 'public', input: ['one two', 'three'], dimensions: 16 };
    const { status, text } = await send(embeddings!.buildRequest({ channel, key, request, upstreamModel: 'text-embedding-005' }));
    expect(status).toBe(200);
    const answer = embeddings!.convertResponse(text, { request, publicModel: 'public', contentType: 'application/json' });
    expect(answer).toMatchObject({ ok: true, usage: { promptTokens: 3 } });
  });

  it("lists Google's models for the probe and the model sync", async () => {
    const list = vertex.modelList!;
    const { status, text } = await send({ method: 'GET', url: list.url(channel.baseUrl, undefined), headers: list.headers(key), body: '' });
    expect(status).toBe(200);
    const page = list.parse(JSON.parse(text), () => null);
    expect(page.success && page.data.models.map((model) => model.id)).toContain('gemini-2.5-flash');
    expect(vertex.probe.isAnswer(JSON.parse(text))).toBe(true);
  });

  it("maps the simulator's refusals as Vertex's: a foreign project disables the key", async () => {
    const otherKey = key.replace('"project_id":"acme-prod"', '"project_id":"someone-else"');
    const request = vertex.chat!.buildRequest({ channel, key: otherKey, upstreamModel: 'gemini-2.5-flash', request: chat({ messages: [{ role: 'user', content: 'hi' }] }) });
    const { status, text } = await send(request);
    expect(status).toBe(403);
    expect(vertex.chat!.mapErrorResponse(status, text, [])).toMatchObject({ keyRejected: true });
  });
});
