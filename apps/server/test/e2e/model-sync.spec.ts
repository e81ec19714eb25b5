import { startModelListUpstream, type ListRequest, type ModelListUpstream } from '../testing/model-list-upstream';
import { startE2eRelay, type E2eRelay } from './e2e-relay';

const UPSTREAM_KEY = 'sk-e2e-list-0123456789';

/** An OpenAI-compatible server with three models and a one-word chat answer. */
function answer(request: ListRequest) {
  if (request.method === 'GET' && request.url === '/v1/models') {
    return { json: { object: 'list', data: ['gpt-4o', 'text-embedding-3-small', 'my-org/llama-3'].map((id) => ({ id, object: 'model', created: 1, owned_by: 'org' })) } };
  }
  return {
    json: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'my-org/llama-3',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    },
  };
}

describe('e2e: a `*` channel synced from its upstream fills the model list (issue 14)', () => {
  let e2e: E2eRelay;
  let upstream: ModelListUpstream;

  beforeAll(async () => {
    upstream = await startModelListUpstream(answer);
    e2e = await startE2eRelay();
    await e2e.addChannel(`${upstream.origin}/v1`, { keys: [UPSTREAM_KEY], models: ['*'], endpoints: ['chat', 'embeddings'] });
  });
  afterAll(async () => {
    await e2e.close();
    await upstream.close();
  });

  it('the openai SDK lists every synced name with what it is served for', async () => {
    const listed = [];
    for await (const model of e2e.client().models.list()) listed.push(model);
    expect(listed.map((model) => [model.id, (model as typeof model & { endpoints?: string[] }).endpoints])).toEqual([
      ['gpt-4o', ['chat', 'embeddings']],
      ['my-org/llama-3', ['chat', 'embeddings']],
      ['text-embedding-3-small', ['embeddings']],
    ]);
    expect(listed.every((model) => model.object === 'model' && model.owned_by === 'openai')).toBe(true);
  });

  it('retrieves a listed embedding model, and relays chat to a synced name', async () => {
    const client = e2e.client();
    expect(await client.models.retrieve('text-embedding-3-small')).toMatchObject({ id: 'text-embedding-3-small', endpoints: ['embeddings'] });
    const completion = await client.chat.completions.create({ model: 'my-org/llama-3', messages: [{ role: 'user', content: 'Hello' }] });
    expect(completion.choices[0]?.message.content).toBe('Hi.');
    expect(upstream.requests.filter((request) => request.method === 'POST').map((request) => request.url)).toEqual(['/v1/chat/completions']);
  });

  it("Anthropic's shape of the list carries the same chat names, without endpoints", async () => {
    const response = await fetch(`${e2e.url}/v1/models?limit=10`, { headers: { 'x-api-key': e2e.token, 'anthropic-version': '2023-06-01' } });
    const body = (await response.json()) as { data: Array<Record<string, unknown>> };
    // Chat models only: /v1/messages cannot use the embedding model (issue 29).
    expect(body.data.map((model) => model['id'])).toEqual(['gpt-4o', 'my-org/llama-3']);
    expect(body.data.every((model) => !('endpoints' in model))).toBe(true);
  });
});
