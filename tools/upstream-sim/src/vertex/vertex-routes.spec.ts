import { parseSse } from '../sim-test-client';
import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';
import { createTestServiceAccount, mintTestToken } from './vertex-test-account';

const account = createTestServiceAccount();
const CLAUDE = 'claude-sonnet-4-5@20250929';
let sim: UpstreamSim;
let token: string;

beforeAll(async () => {
  sim = await startUpstreamSim({ vertexServiceAccounts: { [account.clientEmail]: account.publicKeyPem } });
  token = await mintTestToken(sim.vertexTokenUri, account);
});
afterAll(() => sim.close());

const modelUrl = (publisher: 'google' | 'anthropic', model: string, method: string, project = 'acme-prod') =>
  `${sim.vertexBaseUrl}/v1/projects/${project}/locations/us-east5/publishers/${publisher}/models/${model}:${method}`;

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown> });
const hi = { contents: [{ role: 'user', parts: [{ text: 'Say hi' }] }] };
const claudeBody = { anthropic_version: 'vertex-2023-10-16', max_tokens: 64, messages: [{ role: 'user', content: 'Say hi' }] };

// https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/api-errors
describe('Vertex auth on the simulator', () => {
  it('refuses a call without a bearer, with a token it never minted, and with an API key: 401 UNAUTHENTICATED', async () => {
    const none = await fetch(modelUrl('google', 'gemini-2.5-flash', 'generateContent'), { method: 'POST', body: JSON.stringify(hi) });
    expect(await json(none)).toMatchObject({ status: 401, body: { error: { code: 401, status: 'UNAUTHENTICATED', message: expect.stringContaining('missing required authentication credential') } } });
    const forged = await post(modelUrl('google', 'gemini-2.5-flash', 'generateContent'), hi, { authorization: 'Bearer ya29.forged' });
    expect(await json(forged)).toMatchObject({ status: 401, body: { error: { status: 'UNAUTHENTICATED', message: expect.stringContaining('invalid authentication credentials') } } });
    const apiKey = await post(modelUrl('google', 'gemini-2.5-flash', 'generateContent'), hi, { 'x-goog-api-key': 'AIzaSomething' });
    expect(await json(apiKey)).toMatchObject({ status: 401, body: { error: { message: expect.stringContaining('API keys are not supported') } } });
  });

  it("refuses another project than the token's service account's: 403 PERMISSION_DENIED", async () => {
    const response = await post(modelUrl('google', 'gemini-2.5-flash', 'generateContent', 'someone-else'), hi);
    expect(await json(response)).toMatchObject({
      status: 403,
      body: { error: { code: 403, status: 'PERMISSION_DENIED', message: expect.stringContaining("Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/someone-else/") } },
    });
  });
});

describe('Gemini on the simulated Vertex', () => {
  it('answers generateContent as the Gemini API does', async () => {
    const { status, body } = await json(await post(modelUrl('google', 'gemini-2.5-flash', 'generateContent'), hi));
    expect(status).toBe(200);
    expect(body).toMatchObject({ candidates: [{ content: { role: 'model' }, finishReason: 'STOP' }], modelVersion: 'gemini-2.5-flash' });
  });

  it('streams streamGenerateContent?alt=sse', async () => {
    const response = await post(`${modelUrl('google', 'gemini-2.5-flash', 'streamGenerateContent')}?alt=sse`, hi);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSse(await response.text());
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toMatchObject({ candidates: [{ finishReason: 'STOP' }] });
  });

  it('refuses a content without role, and a function call id (Vertex v1 has none), in INVALID_ARGUMENT', async () => {
    const roleless = await post(modelUrl('google', 'gemini-2.5-flash', 'generateContent'), { contents: [{ parts: [{ text: 'hi' }] }] });
    expect(await json(roleless)).toEqual({ status: 400, body: { error: { code: 400, status: 'INVALID_ARGUMENT', message: 'Please use a valid role: user, model.' } } });
    const withId = await post(modelUrl('google', 'gemini-2.5-flash', 'generateContent'), {
      contents: [
        { role: 'user', parts: [{ text: 'weather' }] },
        { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'weather', args: {} } }] },
      ],
    });
    expect(await json(withId)).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining(`Unknown name "id" at 'contents[1].parts[0].function_call'`) } } });
  });

  it('embeds with a text embedding model’s predict, counting tokens per instance', async () => {
    const response = await post(modelUrl('google', 'text-embedding-005', 'predict'), { instances: [{ content: 'one two', task_type: 'RETRIEVAL_QUERY' }, { content: 'three' }], parameters: { outputDimensionality: 8 } });
    const { status, body } = await json(response);
    expect(status).toBe(200);
    const predictions = body['predictions'] as Array<{ embeddings: { values: number[]; statistics: { token_count: number } } }>;
    expect(predictions.map((prediction) => [prediction.embeddings.values.length, prediction.embeddings.statistics.token_count])).toEqual([
      [8, 2],
      [8, 1],
    ]);
  });

  it("lists Google's models in Model Garden's shape, paged", async () => {
    const first = await json(await fetch(`${sim.vertexBaseUrl}/v1beta1/publishers/google/models?pageSize=2`, { headers: { authorization: `Bearer ${token}` } }));
    expect(first.body).toMatchObject({ publisherModels: [{ name: 'publishers/google/models/gemini-2.5-flash' }, { name: 'publishers/google/models/gemini-2.5-pro' }], nextPageToken: expect.any(String) });
    const next = String(first.body['nextPageToken']);
    const second = await json(await fetch(`${sim.vertexBaseUrl}/v1beta1/publishers/google/models?pageSize=2&pageToken=${next}`, { headers: { authorization: `Bearer ${token}` } }));
    expect((second.body['publisherModels'] as Array<{ name: string }>)[0]?.name).toBe('publishers/google/models/gemini-2.5-flash-lite');
  });
});

// https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude
describe('Claude on the simulated Vertex', () => {
  it('answers rawPredict with an Anthropic message for the model in the URL', async () => {
    const { status, body } = await json(await post(modelUrl('anthropic', CLAUDE, 'rawPredict'), claudeBody));
    expect(status).toBe(200);
    expect(body).toMatchObject({ type: 'message', role: 'assistant', model: CLAUDE, stop_reason: 'end_turn' });
  });

  it("streams streamRawPredict as Anthropic's SSE events", async () => {
    const response = await post(modelUrl('anthropic', CLAUDE, 'streamRawPredict'), { ...claudeBody, stream: true });
    const events = parseSse(await response.text());
    expect(events[0]?.event).toBe('message_start');
    expect(events.at(-1)?.event).toBe('message_stop');
  });

  it('refuses a model in the body and any anthropic_version but Vertex’s, in Anthropic’s error shape', async () => {
    const withModel = await post(modelUrl('anthropic', CLAUDE, 'rawPredict'), { ...claudeBody, model: CLAUDE });
    expect(await json(withModel)).toEqual({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'model: Extra inputs are not permitted' } } });
    const { anthropic_version: _version, ...unversioned } = claudeBody;
    expect(await json(await post(modelUrl('anthropic', CLAUDE, 'rawPredict'), unversioned))).toMatchObject({ status: 400, body: { error: { message: 'anthropic_version: Field required' } } });
    const bedrock = await post(modelUrl('anthropic', CLAUDE, 'rawPredict'), { ...claudeBody, anthropic_version: 'bedrock-2023-05-31' });
    expect(await json(bedrock)).toMatchObject({ status: 400, body: { error: { message: "anthropic_version: Input should be 'vertex-2023-10-16'" } } });
  });

  it('honours a known anthropic-beta header and refuses an unknown one', async () => {
    expect((await post(modelUrl('anthropic', CLAUDE, 'rawPredict'), claudeBody, { 'anthropic-beta': 'context-1m-2025-08-07' })).status).toBe(200);
    const unknown = await post(modelUrl('anthropic', CLAUDE, 'rawPredict'), claudeBody, { 'anthropic-beta': 'made-up-2020-01-01' });
    expect(await json(unknown)).toMatchObject({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error' } } });
  });

  it('counts tokens at count-tokens:rawPredict, the model named in the body', async () => {
    const response = await post(modelUrl('anthropic', 'count-tokens', 'rawPredict'), { anthropic_version: 'vertex-2023-10-16', model: CLAUDE, messages: claudeBody.messages });
    expect(await json(response)).toEqual({ status: 200, body: { input_tokens: expect.any(Number) } });
    const unnamed = await post(modelUrl('anthropic', 'count-tokens', 'rawPredict'), { anthropic_version: 'vertex-2023-10-16', messages: claudeBody.messages });
    expect(await json(unnamed)).toMatchObject({ status: 400, body: { error: { message: 'model: Field required' } } });
  });

  it('plays queued faults in the publisher’s shape', async () => {
    sim.failNext({ kind: 'status', status: 529 });
    expect(await json(await post(modelUrl('anthropic', CLAUDE, 'rawPredict'), claudeBody))).toMatchObject({ status: 529, body: { type: 'error', error: { type: 'overloaded_error' } } });
    sim.failNext({ kind: 'status', status: 429 });
    expect(await json(await post(modelUrl('google', 'gemini-2.5-flash', 'generateContent'), hi))).toMatchObject({ status: 429, body: { error: { status: 'RESOURCE_EXHAUSTED' } } });
  });
});
