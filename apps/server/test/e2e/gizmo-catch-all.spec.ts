import OpenAI from 'openai';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { createAssistant, rawChatError, sdkError, upstreamChats } from './gizmo-assistants';

const hello = [{ role: 'user' as const, content: 'Hello there' }];

/**
 * Issue 11: with a catch-all `*` channel, `gpt-4o-gizmo-g-nope` was forwarded upstream instead of
 * answering 404. Relay chaining needs a pattern that names the gizmo part itself (SPEC §5).
 */
describe('issue 11: unknown assistants stay unknown behind a catch-all channel', () => {
  let e2e: E2eRelayWithSim;
  let client: OpenAI;

  beforeEach(async () => {
    e2e = await startRelayWithSim({ models: ['*'] });
    client = e2e.client();
    await createAssistant(e2e, { id: 'g-known', name: 'Known', instructions: 'Known instructions.' });
  });
  afterEach(() => e2e.close());

  it.each(['*', 'gpt-4o*', 'gpt-?o-*', '*-g-*'])('a channel serving %s: 404 model_not_found, nothing sent upstream', async (pattern) => {
    const other = await e2e.startSim();
    await e2e.addChannel(other.baseUrl, { name: `also ${pattern}`, models: [pattern] });
    for (const stream of [false, true]) {
      const raw = await rawChatError(e2e, { model: 'gpt-4o-gizmo-g-nope', messages: hello, stream });
      expect(raw).toMatchObject({ status: 404, error: { code: 'model_not_found', param: 'model' } });
      expect(raw.error.message).toContain('g-nope');
    }
    expect(await sdkError(client, { model: 'gpt-4o-gizmo-g-nope', messages: hello })).toBeInstanceOf(OpenAI.NotFoundError);
    expect(upstreamChats(e2e.sim.requests)).toHaveLength(0);
    expect(upstreamChats(other.requests)).toHaveLength(0);
    const listed = await client.models.retrieve('gpt-4o-gizmo-g-nope').then(
      () => 'found',
      (error: unknown) => (error instanceof OpenAI.NotFoundError ? 'not found' : error),
    );
    expect(listed).toBe('not found');
  });

  it('a known assistant still routes through the catch-all channel as its family', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-4o-gizmo-g-known', messages: hello });
    expect(completion.model).toBe('gpt-4o-gizmo-g-known');
    const [sent] = upstreamChats(e2e.sim.requests);
    expect(sent?.model).toBe('gpt-4o');
    expect(sent?.messages[0]).toEqual({ role: 'system', content: 'Known instructions.' });
  });

  it.each(['*-gizmo-*', 'gpt-4o-gizmo-*', 'gpt-4o-gizmo-g-remote'])(
    'a pattern naming the gizmo part (%s) chains the unknown name there, never to the catch-all',
    async (pattern) => {
      const remote = await e2e.startSim();
      await e2e.addChannel(remote.baseUrl, { name: 'another relay', models: [pattern], priority: -1 });
      for (let i = 0; i < 4; i++) {
        const completion = await client.chat.completions.create({ model: 'gpt-4o-gizmo-g-remote', messages: hello });
        expect(completion.model).toBe('gpt-4o-gizmo-g-remote');
      }
      expect(upstreamChats(remote.requests).map((body) => body.model)).toEqual(Array(4).fill('gpt-4o-gizmo-g-remote'));
      expect(upstreamChats(e2e.sim.requests)).toHaveLength(0);
    },
  );
});
