import OpenAI from 'openai';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { createAssistant, createForeignAssistant, rawChatError, sdkError, upstreamChats } from './gizmo-assistants';

const hello = [{ role: 'user' as const, content: 'Hello there' }];

interface ExpectedError {
  status: 400 | 404;
  code: string;
  /** Every one of these appears in the error message. */
  naming: string[];
}

describe('e2e: custom assistants that cannot be used', () => {
  let e2e: E2eRelayWithSim;
  let client: OpenAI;

  beforeEach(async () => {
    e2e = await startRelayWithSim({ models: ['gpt-4o', 'gpt-4o-mini'] });
    client = e2e.client();
  });
  afterEach(() => e2e.close());

  /** Checks the SDK's error class and the raw body (official ErrorResponse) for `body`, streamed and not. */
  async function expectRejected(body: { model: string; messages: unknown[] }, expected: ExpectedError): Promise<void> {
    const ErrorClass = expected.status === 404 ? OpenAI.NotFoundError : OpenAI.BadRequestError;
    for (const stream of [false, true]) {
      const error = await sdkError(client, { ...body, stream });
      expect(error).toBeInstanceOf(ErrorClass);
      expect(error).toMatchObject({ status: expected.status, code: expected.code, param: 'model' });
      for (const name of expected.naming) expect(error.message).toContain(name);

      const raw = await rawChatError(e2e, { ...body, stream });
      expect(raw).toMatchObject({ status: expected.status, error: { code: expected.code, param: 'model' } });
      for (const name of expected.naming) expect(raw.error.message).toContain(name);
    }
    expect(upstreamChats(e2e.sim.requests)).toHaveLength(0);
  }

  it('404 model_not_found naming the assistant when no assistant has the id', async () => {
    await expectRejected(
      { model: 'gpt-4o-gizmo-g-nobody', messages: hello },
      { status: 404, code: 'model_not_found', naming: ["'g-nobody'", 'gpt-4o-gizmo-g-nobody'] },
    );
  });

  it('404 model_not_found for an assistant deleted a moment ago', async () => {
    await createAssistant(e2e, { id: 'g-gone', name: 'Gone' });
    const deleted = await fetch(`${e2e.url}/api/assistants/g-gone`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${e2e.relay.adminKey}` },
    });
    expect(deleted.status).toBe(204);

    await expectRejected(
      { model: 'gpt-4o-gizmo-g-gone', messages: hello },
      { status: 404, code: 'model_not_found', naming: ["'g-gone'"] },
    );
  });

  it('400 model_not_allowed for a family the assistant does not allow; the allowed one works', async () => {
    await createAssistant(e2e, { id: 'g-x', name: 'Mini only', instructions: 'Be small.', models: ['gpt-4o-mini'] });

    await expectRejected(
      { model: 'gpt-4o-gizmo-g-x', messages: hello },
      { status: 400, code: 'model_not_allowed', naming: ["'g-x'", 'gpt-4o'] },
    );

    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini-gizmo-g-x', messages: hello });
    expect(completion.model).toBe('gpt-4o-mini-gizmo-g-x');
    expect(upstreamChats(e2e.sim.requests)).toEqual([
      { model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'Be small.' }, ...hello] },
    ]);
  });

  it('allows families by glob: gpt-4o-* admits gpt-4o-mini and refuses gpt-4o', async () => {
    await createAssistant(e2e, { id: 'g-glob', name: 'Glob', models: ['gpt-4o-*'] });

    await expectRejected(
      { model: 'gpt-4o-gizmo-g-glob', messages: hello },
      { status: 400, code: 'model_not_allowed', naming: ["'g-glob'"] },
    );
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini-gizmo-g-glob', messages: hello });
    expect(completion.choices[0]?.message.content).toBe('You said: Hello there');
  });

  it('404 model_not_found for a private assistant of another account, as if it did not exist', async () => {
    await createForeignAssistant(e2e, { id: 'g-secret', visibility: 'private' });

    await expectRejected(
      { model: 'gpt-4o-gizmo-g-secret', messages: hello },
      { status: 404, code: 'model_not_found', naming: ["'g-secret'"] },
    );
  });

  it('serves a public assistant of another account, with its instructions', async () => {
    await createForeignAssistant(e2e, { id: 'g-shared', visibility: 'public', instructions: 'Shared prompt.' });

    const completion = await client.chat.completions.create({ model: 'gpt-4o-gizmo-g-shared', messages: hello });

    expect(completion.model).toBe('gpt-4o-gizmo-g-shared');
    expect(completion.choices[0]?.message.content).toBe('You said: Hello there');
    expect(upstreamChats(e2e.sim.requests)).toEqual([
      { model: 'gpt-4o', messages: [{ role: 'system', content: 'Shared prompt.' }, ...hello] },
    ]);
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ assistantId: 'g-shared', status: 200 });
  });

  it('404 model_not_found when no channel serves the family, though the assistant allows any', async () => {
    await createAssistant(e2e, { id: 'g-open', name: 'Open' });

    await expectRejected(
      { model: 'claude-3-opus-gizmo-g-open', messages: hello },
      { status: 404, code: 'model_not_found', naming: ['claude-3-opus'] },
    );
  });
});
