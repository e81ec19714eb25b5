import OpenAI from 'openai';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { expectSpecValid } from './openai-spec';

type CreateParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

const hello = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'Hello there' }] };

/** The error the SDK raises for `body`; fails the test when the call succeeds. */
async function sdkError(client: OpenAI, body: unknown): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await client.chat.completions.create(body as CreateParams);
  } catch (error) {
    if (error instanceof OpenAI.APIError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

describe('e2e: errors arrive as the OpenAI SDK’s error classes, in the official shape', () => {
  let e2e: E2eRelayWithSim;
  let client: OpenAI;

  beforeEach(async () => {
    e2e = await startRelayWithSim({ timeouts: { first_byte_ms: 300 } });
    client = e2e.client();
  });
  afterEach(() => e2e.close());

  /** The raw answer to `body`, checked against the official ErrorResponse schema. */
  async function rawError(body: unknown, headers?: Record<string, string>) {
    const response = await e2e.postChat(body, headers);
    const json = (await response.json()) as { error: Record<string, unknown> };
    expectSpecValid('ErrorResponse', json);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    return { status: response.status, error: json.error };
  }

  it.each([
    ['an empty messages array', 'messages', { ...hello, messages: [] }],
    ['an unknown role', 'messages[0].role', { ...hello, messages: [{ role: 'wizard', content: 'hi' }] }],
    ['a missing model', 'model', { messages: hello.messages }],
  ])('400 BadRequestError for %s, param %s', async (_label, param, body) => {
    const error = await sdkError(client, body);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', param });

    expect(await rawError(body)).toMatchObject({ status: 400, error: { param, type: 'invalid_request_error' } });
    expect(e2e.sim.requests).toHaveLength(0);
  });

  it('401 AuthenticationError for a wrong token, and the upstream is never called', async () => {
    const error = await sdkError(e2e.client({ apiKey: 'sk-not-a-relay-token' }), hello);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key', type: 'authentication_error' });

    const raw = await rawError(hello, { authorization: 'Bearer sk-not-a-relay-token' });
    expect(raw).toMatchObject({ status: 401, error: { code: 'invalid_api_key' } });
    expect(e2e.sim.requests).toHaveLength(0);
  });

  it('404 NotFoundError model_not_found for a model no channel serves', async () => {
    const body = { ...hello, model: 'no-such-model' };
    const error = await sdkError(client, body);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    expect(error.message).toContain('no-such-model');

    expect(await rawError(body)).toMatchObject({ status: 404, error: { code: 'model_not_found' } });
  });

  it('an upstream 500 becomes a 502 upstream_error (InternalServerError), non-streamed and streamed', async () => {
    e2e.sim.failNext({ kind: 'status', status: 500 }, 10);
    const error = await sdkError(client, hello);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(error).toMatchObject({ status: 502, type: 'upstream_error' });

    const streamError = await client.chat.completions.create({ ...hello, stream: true }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(streamError).toBeInstanceOf(OpenAI.InternalServerError);
    expect(streamError).toMatchObject({ status: 502, type: 'upstream_error' });

    const raw = await rawError(hello);
    expect(raw).toMatchObject({ status: 502, error: { type: 'upstream_error' } });
    expect(raw.error['message']).toContain('500');
    expect(JSON.stringify(raw)).not.toContain('sk-sim-key');
  });

  it('an upstream 400 keeps its status and message', async () => {
    e2e.sim.failNext({ kind: 'status', status: 400 }, 2);
    const error = await sdkError(client, hello);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'messages' });
    expect(error.message).toContain("Invalid 'messages': rejected by the simulator.");

    const raw = await rawError(hello);
    expect(raw).toMatchObject({
      status: 400,
      error: { message: "Invalid 'messages': rejected by the simulator.", type: 'invalid_request_error' },
    });
    // A request error is not the channel's fault: one attempt each, no retry.
    expect(e2e.sim.requests).toHaveLength(2);
  });

  it('an upstream that never answers becomes 504 upstream_timeout after the channel’s first-byte timeout', async () => {
    e2e.sim.failNext({ kind: 'timeout' }, 1);
    const started = Date.now();
    const error = await sdkError(client, hello);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(error).toMatchObject({ status: 504, code: 'upstream_timeout', type: 'upstream_error' });

    e2e.sim.failNext({ kind: 'timeout' }, 1);
    expect(await rawError({ ...hello, stream: true })).toMatchObject({
      status: 504,
      error: { code: 'upstream_timeout' },
    });

    const rows = await e2e.usageRows(2);
    expect(rows.map((row) => [row.status, row.errorCode, row.stream])).toEqual([
      [504, 'upstream_timeout', false],
      [504, 'upstream_timeout', true],
    ]);
  });
});
