import OpenAI from 'openai';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { createAssistant, createForeignAssistant } from './gizmo-assistants';
import { expectSpecValid } from './openai-spec';

describe('e2e: custom assistants in the model list', () => {
  let e2e: E2eRelayWithSim;
  let client: OpenAI;

  beforeEach(async () => {
    e2e = await startRelayWithSim({ models: ['gpt-4o', 'gpt-4o-mini'] });
    client = e2e.client();
    await createAssistant(e2e, { id: 'g-open', name: 'Any family' });
    await createAssistant(e2e, { id: 'g-mini', name: 'Mini only', models: ['gpt-4o-mini'] });
    await createAssistant(e2e, { id: 'g-unserved', name: 'No channel', models: ['claude-3-opus'] });
    await createForeignAssistant(e2e, { id: 'g-secret', visibility: 'private' });
    await createForeignAssistant(e2e, { id: 'g-shared', visibility: 'public' });
  });
  afterEach(() => e2e.close());

  async function listedIds(): Promise<string[]> {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    return ids.sort();
  }

  /** The raw answer to GET /v1/models/:model with the relay token. */
  async function rawRetrieve(model: string): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${e2e.url}/v1/models/${model}`, { headers: { authorization: `Bearer ${e2e.token}` } });
    return { status: response.status, body: await response.json() };
  }

  it('lists each usable assistant under every allowed family a channel serves', async () => {
    expect(await listedIds()).toEqual(
      [
        'gpt-4o',
        'gpt-4o-mini',
        // models: null → both served families
        'gpt-4o-gizmo-g-open',
        'gpt-4o-mini-gizmo-g-open',
        // restricted to gpt-4o-mini
        'gpt-4o-mini-gizmo-g-mini',
        // public assistant of another account
        'gpt-4o-gizmo-g-shared',
        'gpt-4o-mini-gizmo-g-shared',
      ].sort(),
    );

    const response = await fetch(`${e2e.url}/v1/models`, { headers: { authorization: `Bearer ${e2e.token}` } });
    const body = (await response.json()) as { data: unknown[] };
    expectSpecValid('ListModelsResponse', body);
    expect(body.data).toContainEqual({
      id: 'gpt-4o-gizmo-g-open',
      object: 'model',
      created: expect.any(Number),
      owned_by: 'chat-relay',
      endpoints: ['chat'],
    });
  });

  it('follows assistants as they change: a PATCH narrows the families, a DELETE removes them', async () => {
    const patched = await fetch(`${e2e.url}/api/assistants/g-open`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ models: ['gpt-4o'] }),
    });
    expect(patched.status).toBe(200);
    const deleted = await fetch(`${e2e.url}/api/assistants/g-mini`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${e2e.relay.adminKey}` },
    });
    expect(deleted.status).toBe(204);

    const gizmos = (await listedIds()).filter((id) => id.includes('-gizmo-'));
    expect(gizmos).toEqual(['gpt-4o-gizmo-g-open', 'gpt-4o-gizmo-g-shared', 'gpt-4o-mini-gizmo-g-shared']);
  });

  it.each(['gpt-4o-gizmo-g-open', 'gpt-4o-mini-gizmo-g-open', 'gpt-4o-mini-gizmo-g-mini', 'gpt-4o-gizmo-g-shared'])(
    'retrieves %s',
    async (model) => {
      const retrieved = await client.models.retrieve(model);

      expect(retrieved).toMatchObject({ id: model, object: 'model', owned_by: 'chat-relay' });
      const raw = await rawRetrieve(model);
      expect(raw.status).toBe(200);
      expectSpecValid('Model', raw.body);
    },
  );

  it.each([
    ['an unknown id', 'gpt-4o-gizmo-g-unknown'],
    ['a private assistant of another account', 'gpt-4o-gizmo-g-secret'],
    ['a family the assistant does not allow', 'gpt-4o-gizmo-g-mini'],
    ['a family no channel serves', 'claude-3-opus-gizmo-g-unserved'],
  ])('404 model_not_found retrieving %s', async (_label, model) => {
    const error = await client.models.retrieve(model).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'model_not_found' });

    const raw = await rawRetrieve(model);
    expect(raw.status).toBe(404);
    expectSpecValid('ErrorResponse', raw.body);
    expect(raw.body).toMatchObject({ error: { code: 'model_not_found' } });
  });
});
