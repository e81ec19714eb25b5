import OpenAI, { AzureOpenAI } from 'openai';
import { startUpstreamSim } from '../sim-server';
import { readAll, sseData } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { OUTPUT_FILTER_WORD, PROMPT_FILTER_WORD } from './azure-chat';

const KEY = 'azure-sim-key';
const SECRET = 'entra-client-secret';
const VERSION = '2024-10-21';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [KEY, SECRET] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const azureClient = (init: { deployment?: string; apiKey?: string; token?: () => Promise<string> } = {}) =>
  new AzureOpenAI({
    endpoint: sim.origin,
    apiVersion: VERSION,
    maxRetries: 0,
    ...(init.deployment ? { deployment: init.deployment } : {}),
    ...(init.token ? { azureADTokenProvider: init.token } : { apiKey: init.apiKey ?? KEY }),
  });

function call(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
  return fetch(`${sim.origin}${path}`, {
    method: init.method ?? 'POST',
    headers: { 'content-type': 'application/json', ...(init.headers ?? { 'api-key': KEY }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

const hi = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };

async function mintToken(secret: string): Promise<Response> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: 'app-1', client_secret: secret, scope: 'https://cognitiveservices.azure.com/.default' });
  return fetch(`${sim.origin}/tenant-1/oauth2/v2.0/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
}

describe('Azure OpenAI on the simulator: the two URL styles, through the openai package', () => {
  it('the deployments API (AzureOpenAI with a deployment): the path names it, api-version and api-key are sent, the answer is annotated', async () => {
    const completion = await azureClient({ deployment: 'gpt-4o-mini' }).chat.completions.create({ model: 'ignored-by-azure', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]?.message.content).toBe('You said: hi');
    expect(completion.model).toBe('gpt-4o-mini');
    const raw = completion as unknown as { prompt_filter_results: unknown[]; choices: Array<{ content_filter_results: unknown }> };
    expect(raw.prompt_filter_results).toHaveLength(1);
    expect(raw.choices[0]?.content_filter_results).toMatchObject({ violence: { filtered: false, severity: 'safe' } });
    const seen = sim.requests.at(-1);
    expect([seen?.path, seen?.query, seen?.headers['api-key']]).toEqual(['/openai/deployments/gpt-4o-mini/chat/completions', `api-version=${VERSION}`, KEY]);
  });

  it('the v1 API (the OpenAI client at {endpoint}/openai/v1/): the deployment is the body model; the key may be a bearer there', async () => {
    const client = new OpenAI({ baseURL: `${sim.origin}/openai/v1/`, apiKey: KEY, maxRetries: 0 });
    const completion = await client.chat.completions.create(hi as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(completion.choices[0]?.message.content).toBe('You said: hi');
    const embedding = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'x' });
    expect(embedding.data[0]?.embedding.length).toBeGreaterThan(0);
    const response = await client.responses.create({ model: 'gpt-4o-mini', input: 'hello' });
    expect(response.output_text).toBe('You said: hello');
    expect(sim.requests.map((request) => request.path)).toEqual(['/openai/v1/chat/completions', '/openai/v1/embeddings', '/openai/v1/responses']);
  });

  it('serves the endpoints beside chat on the deployments API too', async () => {
    const client = azureClient({ deployment: 'text-embedding-3-small' });
    const embedding = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] });
    expect(embedding.data).toHaveLength(2);
    expect(sim.requests.at(-1)?.path).toBe('/openai/deployments/text-embedding-3-small/embeddings');
  });

  it('lists the base models in both styles, in Azure’s shape', async () => {
    for (const path of ['/openai/v1/models', `/openai/models?api-version=${VERSION}`]) {
      const response = await call(path, { method: 'GET' });
      expect(response.status).toBe(200);
      const list = (await response.json()) as { data: Array<{ id: string; capabilities: Record<string, boolean> }> };
      expect(list.data.find((model) => model.id === 'gpt-4o')?.capabilities).toMatchObject({ chat_completion: true, inference: true });
      expect(list.data.find((model) => model.id === 'text-embedding-3-small')?.capabilities).toMatchObject({ embeddings: true, chat_completion: false });
    }
  });
});

describe('Azure OpenAI on the simulator: refusals in Azure’s words', () => {
  it('no key or a wrong one: 401 "Access denied due to invalid subscription key…"', async () => {
    const body = {
      error: {
        code: '401',
        message:
          'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
      },
    };
    const attempts: Array<Record<string, string>> = [{}, { 'api-key': 'wrong' }, { authorization: `Bearer ${KEY}x` }];
    for (const headers of attempts) {
      const response = await call(`/openai/deployments/gpt-4o/chat/completions?api-version=${VERSION}`, { body: hi, headers });
      expect(response.status).toBe(401);
      if (!('authorization' in headers)) expect(await response.json()).toEqual(body);
    }
  });

  it('the deployments API takes no bearer api key (only a minted token), and the AzureOpenAI client fails with it', async () => {
    const response = await call(`/openai/deployments/gpt-4o/chat/completions?api-version=${VERSION}`, { body: hi, headers: { authorization: `Bearer ${KEY}` } });
    expect(response.status).toBe(401);
    await expect(azureClient({ deployment: 'gpt-4o', apiKey: 'nope' }).chat.completions.create(hi as OpenAI.ChatCompletionCreateParamsNonStreaming)).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('the deployments API without an api-version: 404 "Resource not found"', async () => {
    const response = await call('/openai/deployments/gpt-4o/chat/completions', { body: hi });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: '404', message: 'Resource not found' } });
  });

  it('a deployment the resource does not have: 404 DeploymentNotFound, in both styles', async () => {
    const deployed = await call(`/openai/deployments/nope/chat/completions?api-version=${VERSION}`, { body: hi });
    const v1 = await call('/openai/v1/chat/completions', { body: { ...hi, model: 'nope' } });
    for (const response of [deployed, v1]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        error: {
          code: 'DeploymentNotFound',
          message: 'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
        },
      });
    }
  });

  it('a queued 429 answers with Azure’s rate-limit body, retry-after-ms and retry-after', async () => {
    sim.failNext({ kind: 'status', status: 429 });
    const response = await call('/openai/v1/embeddings', { body: { model: 'text-embedding-3-small', input: 'x' } });
    expect(response.status).toBe(429);
    expect([response.headers.get('retry-after-ms'), response.headers.get('retry-after')]).toEqual(['6000', '6']);
    expect(((await response.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: '429', message: expect.stringContaining('Please retry after 6 seconds') });
    sim.failNext({ kind: 'status', status: 429 });
    await expect(azureClient({ deployment: 'gpt-4o' }).chat.completions.create(hi as OpenAI.ChatCompletionCreateParamsNonStreaming)).rejects.toBeInstanceOf(OpenAI.RateLimitError);
  });
});

describe('Azure OpenAI on the simulator: the content filter', () => {
  it(`a prompt with "${PROMPT_FILTER_WORD}": 400 content_filter with the verdicts, streamed or not`, async () => {
    for (const stream of [false, true]) {
      const response = await call('/openai/v1/chat/completions', { body: { ...hi, stream, messages: [{ role: 'user', content: `say ${PROMPT_FILTER_WORD}` }] } });
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: Record<string, unknown> };
      expect(error).toMatchObject({ code: 'content_filter', param: 'prompt', status: 400, type: null, innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: { violence: { filtered: true, severity: 'medium' } } } });
    }
  });

  it('completions too: annotated, the preamble first when streamed, the prompt refused', async () => {
    const instruct = { model: 'gpt-3.5-turbo-instruct', prompt: 'hello there' };
    const whole = (await (await call('/openai/v1/completions', { body: instruct })).json()) as { prompt_filter_results: unknown[]; choices: Array<Record<string, unknown>> };
    expect(whole.prompt_filter_results).toHaveLength(1);
    expect(whole.choices[0]).toHaveProperty('content_filter_results');
    const streamed = sseData((await readAll(await call(`/openai/deployments/gpt-3.5-turbo-instruct/completions?api-version=${VERSION}`, { body: { ...instruct, stream: true } }))).text);
    expect(JSON.parse(streamed[0] ?? '{}')).toMatchObject({ choices: [], model: '', prompt_filter_results: [{ prompt_index: 0 }] });
    expect(JSON.parse(streamed[1] ?? '{}')).toMatchObject({ model: 'gpt-3.5-turbo-instruct', choices: [{ content_filter_results: { hate: { filtered: false } } }] });
    const refused = await call('/openai/v1/completions', { body: { ...instruct, prompt: `a ${PROMPT_FILTER_WORD}` } });
    expect([refused.status, ((await refused.json()) as { error: { code: string } }).error.code]).toEqual([400, 'content_filter']);
  });

  it('every stream opens with the prompt’s verdicts alone, and annotates each choice', async () => {
    const response = await call('/openai/v1/chat/completions', { body: { ...hi, stream: true, stream_options: { include_usage: true } } });
    const data = sseData((await readAll(response)).text);
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((text) => JSON.parse(text) as { id: string; model: string; choices: Array<Record<string, unknown>>; usage?: unknown; prompt_filter_results?: unknown });
    expect(chunks[0]).toMatchObject({ choices: [], id: '', model: '', object: '', prompt_filter_results: [{ prompt_index: 0 }] });
    for (const chunk of chunks.slice(1, -1)) for (const choice of chunk.choices) expect(choice).toHaveProperty('content_filter_results');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } });
  });

  it(`output tripping the filter ("${OUTPUT_FILTER_WORD}"): the stream stops with finish_reason content_filter; a whole answer has no content`, async () => {
    const messages = [{ role: 'user', content: `tell me about ${OUTPUT_FILTER_WORD} and more words here` }];
    const client = azureClient({ deployment: 'gpt-4o' });
    let text = '';
    let finish: string | null | undefined;
    for await (const chunk of await client.chat.completions.create({ model: 'gpt-4o', messages: messages as OpenAI.ChatCompletionMessageParam[], stream: true })) {
      text += chunk.choices[0]?.delta?.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(finish).toBe('content_filter');
    expect(`You said: tell me about ${OUTPUT_FILTER_WORD} and more words here`.startsWith(text)).toBe(true);
    expect(text.length).toBeLessThan(20);
    const whole = await client.chat.completions.create({ model: 'gpt-4o', messages: messages as OpenAI.ChatCompletionMessageParam[] });
    expect([whole.choices[0]?.finish_reason, whole.choices[0]?.message.content]).toEqual(['content_filter', null]);
  });
});

describe('Azure OpenAI on the simulator: Microsoft Entra ID', () => {
  it('mints a bearer for a service principal’s client credentials, which the Azure routes then take', async () => {
    const minted = await mintToken(SECRET);
    expect(minted.status).toBe(200);
    const token = (await minted.json()) as { token_type: string; expires_in: number; access_token: string };
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 3599, access_token: expect.any(String) });
    const completion = await azureClient({ deployment: 'gpt-4o', token: () => Promise.resolve(token.access_token) }).chat.completions.create(hi as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(completion.choices[0]?.message.content).toBe('You said: hi');
    expect(sim.requests.at(-1)?.headers.authorization).toBe(`Bearer ${token.access_token}`);
  });

  it('refuses a wrong client secret with invalid_client (AADSTS7000215), and a token it did not mint', async () => {
    const refused = await mintToken('wrong-secret');
    expect(refused.status).toBe(401);
    const body = (await refused.json()) as { error: string; error_description: string; error_codes: number[] };
    expect(body).toMatchObject({ error: 'invalid_client', error_codes: [7000215] });
    expect(body.error_description).toMatch(/^AADSTS7000215: Invalid client secret provided\./);
    const forged = await call(`/openai/deployments/gpt-4o/chat/completions?api-version=${VERSION}`, { body: hi, headers: { authorization: 'Bearer eyJforged' } });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: { message: string } }).error.message).toMatch(/^Unauthorized\. Access token is missing, invalid/);
  });
});
