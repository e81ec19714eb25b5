import OpenAI from 'openai';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { collect } from './weather-tools';

const hello = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'Hello there' }] };
const GENERATED_ID = /^req_[0-9a-f]{32}$/;

describe('e2e: x-request-id on every answer', () => {
  let e2e: E2eRelayWithSim;
  let client: OpenAI;

  beforeEach(async () => {
    e2e = await startRelayWithSim();
    client = e2e.client();
  });
  afterEach(() => e2e.close());

  it('on a success: _request_id and withResponse() agree, and the usage log has the same id', async () => {
    const completion = await client.chat.completions.create(hello);
    expect(completion._request_id).toMatch(GENERATED_ID);

    const { request_id: requestId, response } = await client.chat.completions.create(hello).withResponse();
    expect(requestId).toMatch(GENERATED_ID);
    expect(response.headers.get('x-request-id')).toBe(requestId);
    expect(requestId).not.toBe(completion._request_id);

    const rows = await e2e.usageRows(2);
    expect(rows.map((row) => row.requestId)).toEqual([completion._request_id, requestId]);
  });

  it('on errors: the SDK error carries the id, for relay and upstream failures alike', async () => {
    const failures: unknown[] = [];
    await client.chat.completions.create({ ...hello, model: 'nope' }).catch((error: unknown) => failures.push(error));
    await e2e
      .client({ apiKey: 'sk-wrong' })
      .chat.completions.create(hello)
      .catch((error: unknown) => failures.push(error));
    e2e.sim.failNext({ kind: 'status', status: 500 });
    await client.chat.completions.create(hello).catch((error: unknown) => failures.push(error));

    expect(failures).toHaveLength(3);
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(OpenAI.APIError);
      expect((failure as InstanceType<typeof OpenAI.APIError>).requestID).toMatch(GENERATED_ID);
    }
    // Unknown paths: 401 before routing without a key, 404 with one; both carry the id.
    const unauthenticated = await fetch(`${e2e.url}/v1/nowhere`);
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('x-request-id')).toMatch(GENERATED_ID);
    const unknownRoute = await fetch(`${e2e.url}/v1/nowhere`, { headers: { authorization: `Bearer ${e2e.token}` } });
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.headers.get('x-request-id')).toMatch(GENERATED_ID);
  });

  it('on streams: the header comes with the stream, and a stream error keeps it', async () => {
    const { data: stream, request_id: requestId } = await client.chat.completions
      .create({ ...hello, stream: true })
      .withResponse();
    expect(requestId).toMatch(GENERATED_ID);
    expect((await collect(stream)).length).toBeGreaterThan(0);

    e2e.sim.failNext({ kind: 'stream-error' });
    const failing = await client.chat.completions.create({ ...hello, stream: true });
    const thrown = await collect(failing).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(OpenAI.APIError);
    expect((thrown as InstanceType<typeof OpenAI.APIError>).requestID).toMatch(GENERATED_ID);
  });

  it('echoes a safe caller-supplied id and replaces an unsafe one', async () => {
    const safe = 'trace-2024.06:abc_123';
    const completion = await client.chat.completions.create(hello, { headers: { 'x-request-id': safe } });
    expect(completion._request_id).toBe(safe);

    const streamed = await client.chat.completions
      .create({ ...hello, stream: true }, { headers: { 'x-request-id': `${safe}-s` } })
      .withResponse();
    expect(streamed.request_id).toBe(`${safe}-s`);
    await collect(streamed.data);

    const error = await client.chat.completions
      .create({ ...hello, messages: [] }, { headers: { 'x-request-id': `${safe}-e` } })
      .catch((caught: unknown) => caught);
    expect((error as InstanceType<typeof OpenAI.APIError>).requestID).toBe(`${safe}-e`);

    for (const unsafe of ['has spaces in it', 'x'.repeat(129), 'line\u00e9']) {
      const response = await e2e.postChat(hello, { 'x-request-id': unsafe });
      expect(response.headers.get('x-request-id')).toMatch(GENERATED_ID);
      await response.body?.cancel();
    }
  });
});
