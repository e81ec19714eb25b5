import { closedPort } from '../testing/closed-port';
import Anthropic from '@anthropic-ai/sdk';
import { patchToken } from '../testing/patch-token';
import {
  anthropicClient,
  anthropicError,
  anthropicKind,
  CLAUDE,
  geminiKind,
  namedEventsOf,
  openAiKind,
  postAnthropic,
  startAnthropicRelay,
  type AnthropicE2e,
} from './anthropic-e2e';
import { startE2eRelay, type E2eRelay } from './e2e-relay';

const hello: Anthropic.MessageCreateParamsNonStreaming = {
  model: CLAUDE,
  max_tokens: 256,
  messages: [{ role: 'user', content: 'Hello there' }],
};

interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id?: string;
}

/** The raw error answer: Anthropic's shape, JSON, and the request id in the header and the body. */
async function rawError(response: Response): Promise<{ status: number; body: AnthropicErrorBody }> {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as AnthropicErrorBody;
  expect(body).toEqual({
    type: 'error',
    error: { type: expect.any(String), message: expect.any(String) },
    request_id: expect.stringMatching(/^req_/),
  });
  expect(body.error.message).not.toBe('');
  expect(response.headers.get('request-id')).toBe(body.request_id);
  return { status: response.status, body };
}

/** The SDK error's own view of the same: status, type, and the request id it read from the header. */
function expectSdkError(error: InstanceType<typeof Anthropic.APIError>, status: number, type: string): void {
  expect(error.status).toBe(status);
  expect(error.type).toBe(type);
  expect(error.requestID).toMatch(/^req_/);
  expect(error.error).toMatchObject({ type: 'error', error: { type } });
}

describe('e2e: errors reach the Anthropic SDK as its own classes, in Anthropic’s shape', () => {
  let e2e: AnthropicE2e;
  let client: Anthropic;

  beforeEach(async () => {
    e2e = await startAnthropicRelay(anthropicKind);
    client = e2e.anthropic;
  });
  afterEach(() => e2e.close());

  it('401 AuthenticationError for a wrong key (x-api-key or Bearer), the upstream never called', async () => {
    const error = await anthropicError(() => anthropicClient(e2e, { apiKey: 'sk-not-a-relay-token' }).messages.create(hello));
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expectSdkError(error, 401, 'authentication_error');

    const bearer = await anthropicError(() =>
      anthropicClient(e2e, { apiKey: null, authToken: 'sk-not-a-relay-token' }).messages.create(hello),
    );
    expect(bearer).toBeInstanceOf(Anthropic.AuthenticationError);

    const raw = await rawError(await postAnthropic(e2e, '/v1/messages', hello, { 'x-api-key': 'sk-not-a-relay-token' }));
    expect(raw).toMatchObject({ status: 401, body: { error: { type: 'authentication_error' } } });
    const missing = await rawError(await postAnthropic(e2e, '/v1/messages', hello, { 'x-api-key': '' }));
    expect(missing.body.error.message).toContain('x-api-key');
    expect(e2e.sim.requests).toEqual([]);
  });

  it('the relay token as a Bearer token (ANTHROPIC_AUTH_TOKEN) is accepted like x-api-key', async () => {
    const message = await anthropicClient(e2e, { apiKey: null, authToken: e2e.token }).messages.create(hello);
    expect(message.content).toEqual([expect.objectContaining({ text: 'You said: Hello there' })]);
  });

  it('403 PermissionDeniedError for a model outside the token’s allow-list', async () => {
    await patchToken(e2e.relay, e2e.tokenId, { models: ['gpt-4o'] });
    const error = await anthropicError(() => client.messages.create(hello));
    expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expectSdkError(error, 403, 'permission_error');
    expect(error.message).toContain(CLAUDE);

    expect(await rawError(await postAnthropic(e2e, '/v1/messages', hello))).toMatchObject({
      status: 403,
      body: { error: { type: 'permission_error' } },
    });
    // count_tokens is held to the same allow-list.
    await expect(client.messages.countTokens({ model: CLAUDE, messages: hello.messages })).rejects.toBeInstanceOf(
      Anthropic.PermissionDeniedError,
    );
    expect(e2e.sim.requests).toEqual([]);
  });

  it('404 NotFoundError for a model no channel serves, message naming it', async () => {
    const body = { ...hello, model: 'claude-no-such-model' };
    const error = await anthropicError(() => client.messages.create(body));
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expectSdkError(error, 404, 'not_found_error');
    expect(error.message).toContain('claude-no-such-model');

    expect(await rawError(await postAnthropic(e2e, '/v1/messages', body))).toMatchObject({
      status: 404,
      body: { error: { type: 'not_found_error' } },
    });
    await expect(client.messages.countTokens({ model: 'claude-no-such-model', messages: hello.messages })).rejects.toBeInstanceOf(
      Anthropic.NotFoundError,
    );
  });

  it('429 RateLimitError when the token’s rpm is used up, with retry-after', async () => {
    await patchToken(e2e.relay, e2e.tokenId, { rate_limit: { rpm: 1, tpm: null } });
    await client.messages.create(hello);

    const error = await anthropicError(() => client.messages.create(hello));
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expectSdkError(error, 429, 'rate_limit_error');

    const response = await postAnthropic(e2e, '/v1/messages', hello);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await rawError(response)).toMatchObject({ status: 429, body: { error: { type: 'rate_limit_error' } } });
    expect(anthropicKind.calls(e2e.sim)).toHaveLength(1);
  });

  it('402 PaymentRequiredError billing_error when the token’s quota cannot cover the request (not a retryable 429)', async () => {
    await patchToken(e2e.relay, e2e.tokenId, { quota_limit: 1 });
    const error = await anthropicError(() => client.messages.create(hello));
    expect(error).toBeInstanceOf(Anthropic.PaymentRequiredError);
    expectSdkError(error, 402, 'billing_error');

    expect(await rawError(await postAnthropic(e2e, '/v1/messages', { ...hello, stream: true }))).toMatchObject({
      status: 402,
      body: { error: { type: 'billing_error' } },
    });
    expect(e2e.sim.requests).toEqual([]);
  });

  it('400 BadRequestError naming max_tokens when it is missing; the upstream never called', async () => {
    const { max_tokens: _dropped, ...noMaxTokens } = hello;
    const error = await anthropicError(() => client.messages.create(noMaxTokens as Anthropic.MessageCreateParamsNonStreaming));
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expectSdkError(error, 400, 'invalid_request_error');
    expect(error.message).toContain('max_tokens');

    const raw = await rawError(await postAnthropic(e2e, '/v1/messages', noMaxTokens));
    expect(raw).toMatchObject({ status: 400, body: { error: { type: 'invalid_request_error' } } });
    expect(raw.body.error.message).toContain('max_tokens');
    expect(e2e.sim.requests).toEqual([]);
  });

  it('400 for a body that is not JSON, in Anthropic’s shape', async () => {
    const raw = await rawError(await postAnthropic(e2e, '/v1/messages', '{"model": '));
    expect(raw).toMatchObject({ status: 400, body: { error: { type: 'invalid_request_error' } } });
  });

  it('529 OverloadedError when the Anthropic upstream is overloaded', async () => {
    e2e.sim.failNext({ kind: 'status', status: 529 }, 10);
    const error = await anthropicError(() => client.messages.create(hello));
    expect(error).toBeInstanceOf(Anthropic.OverloadedError);
    expectSdkError(error, 529, 'overloaded_error');

    expect(await rawError(await postAnthropic(e2e, '/v1/messages', { ...hello, stream: true }))).toMatchObject({
      status: 529,
      body: { error: { type: 'overloaded_error' } },
    });
  });

  it('529 OverloadedError when a Gemini upstream is overloaded (503 UNAVAILABLE), not a 502 api_error (issue 29)', async () => {
    const gemini = await startAnthropicRelay(geminiKind);
    try {
      gemini.sim.failNext({ kind: 'status', status: 503 }, 10);
      const error = await anthropicError(() => gemini.anthropic.messages.create(hello));
      expect(error).toBeInstanceOf(Anthropic.OverloadedError);
      expectSdkError(error, 529, 'overloaded_error');
    } finally {
      await gemini.close();
    }
  });

  it('an upstream 500: a 5xx api_error (InternalServerError), the channel key never in the message', async () => {
    e2e.sim.failNext({ kind: 'status', status: 500 }, 10);
    const error = await anthropicError(() => client.messages.create(hello));
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expectSdkError(error, 502, 'api_error');

    const raw = await rawError(await postAnthropic(e2e, '/v1/messages', hello));
    expect(raw).toMatchObject({ status: 502, body: { error: { type: 'api_error' } } });
    expect(JSON.stringify(raw.body)).not.toContain('sk-sim-key');
  });

  it.each([anthropicKind, openAiKind])(
    'a failure after a $type stream started: one event: error, no message_stop, and the SDK raises',
    async (kind) => {
      const own = kind === anthropicKind ? e2e : await startAnthropicRelay(kind);
      try {
        own.sim.failNext({ kind: 'stream-error' });
        const stream = own.anthropic.messages.stream({ ...hello, messages: [{ role: 'user', content: 'Tell me a long story' }] });
        const texts: string[] = [];
        stream.on('text', (text) => texts.push(text));
        const error = await anthropicError(() => stream.finalMessage());
        expect(error.status).toBeUndefined();
        expect(['overloaded_error', 'api_error']).toContain(error.type);
        expect(texts.join('')).not.toBe('');

        own.sim.failNext({ kind: 'stream-error' });
        const story = { ...hello, stream: true, messages: [{ role: 'user', content: 'Tell me a long story' }] };
        const response = await postAnthropic(own, '/v1/messages', story);
        expect(response.status).toBe(200);
        expect(response.headers.get('request-id')).toMatch(/^req_/);
        const events = namedEventsOf(await response.text());
        const names = events.map((event) => event.event);
        expect(names[0]).toBe('message_start');
        expect(names.filter((name) => name === 'error')).toHaveLength(1);
        expect(names.at(-1)).toBe('error');
        expect(names).not.toContain('message_stop');
        expect(JSON.parse(events.at(-1)?.data ?? '')).toEqual({
          type: 'error',
          error: { type: expect.stringMatching(/^(overloaded_error|api_error)$/), message: expect.any(String) },
        });

        const rows = (await own.usageRows(2)).slice(-2);
        for (const row of rows) expect(row).toMatchObject({ stream: true, errorCode: expect.any(String) });
      } finally {
        if (own !== e2e) await own.close();
      }
    },
  );
});

describe('e2e: 529 overloaded_error when no channel is available', () => {
  let e2e: E2eRelay;

  beforeEach(async () => {
    e2e = await startE2eRelay({ circuit: { coolDownMs: 60_000 } });
  });
  afterEach(() => e2e.close());

  it('the only channel’s circuit open (its upstream refusing connections): OverloadedError, status 529', async () => {
    await e2e.addChannel(`http://127.0.0.1:${await closedPort()}/v1`, { type: 'anthropic', models: [CLAUDE] });
    const client = anthropicClient(e2e);

    const seen: Array<[number | undefined, string | null]> = [];
    let last: InstanceType<typeof Anthropic.APIError> | undefined;
    for (let i = 0; i < 8 && last?.status !== 529; i++) {
      last = await anthropicError(() => client.messages.create(hello));
      seen.push([last.status, last.type]);
    }
    // Refused connections first (502 api_error), then the open circuit (529).
    expect(seen.slice(0, -1).every(([status, type]) => status === 502 && type === 'api_error')).toBe(true);
    expect(last).toBeInstanceOf(Anthropic.OverloadedError);
    expectSdkError(last!, 529, 'overloaded_error');

    expect(await rawError(await postAnthropic(e2e, '/v1/messages', hello))).toMatchObject({
      status: 529,
      body: { error: { type: 'overloaded_error' } },
    });
  });
});
