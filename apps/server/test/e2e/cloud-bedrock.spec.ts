import type { Channel } from '@chat-relay/contract';
import type { UpstreamSim } from '@chat-relay/upstream-sim';
import { anthropicClient } from './anthropic-e2e';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { readRawStream } from './sse-events';
import { usageRowsFor } from './usage-rows-for';
import { askForBoth, collect, reassembleToolCalls, weatherTools } from './weather-tools';

/** An access key pair the simulator knows (it re-signs with the secret: https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv.html). */
const ACCESS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE';
const ACCESS_KEY = `${ACCESS_KEY_ID}:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`;
/** A Bedrock API key, sent as a bearer (https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys-use.html). */
const API_KEY = 'ABSKQmVkcm9ja0FQSUtleS1zaW0tZXhhbXBsZQ==';
/** The same key id with another secret: the simulator's signature differs. */
const WRONG_SECRET = `${ACCESS_KEY_ID}:not-the-secret-at-all`;
/** Temporary credentials: the session token goes in x-amz-security-token (https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html). */
const SESSION_KEY = 'ASIAIOSFODNN7EXAMPLE:c2Vzc2lvbi1zZWNyZXQtZXhhbXBsZQ:IQoJb3JpZ2luX2VjEXAMPLESESSIONTOKEN';

/** The public name callers use, and the inference profile it is mapped to (https://docs.aws.amazon.com/bedrock/latest/userguide/inference-profiles-support.html). */
const MODEL = 'claude-opus-4-5';
const PROFILE = 'us.anthropic.claude-opus-4-5-20251101-v1:0';
const FOUNDATION = 'anthropic.claude-opus-4-5-20251101-v1:0';

const invokePath = (id: string, stream = false) => `/model/${encodeURIComponent(id)}/${stream ? 'invoke-with-response-stream' : 'invoke'}`;

describe('e2e: bedrock channels (issue 31) — SigV4 and API keys, Claude through InvokeModel', () => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;

  const admin = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${e2e.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
    });
    const text = await response.text();
    return { status: response.status, text, json: JSON.parse(text || 'null') as unknown };
  };
  const addBedrock = (keys: string[], input: Record<string, unknown> = {}): Promise<Channel> =>
    e2e.addChannel(sim.origin, { type: 'bedrock', keys, cloud: { region: 'us-east-1' }, models: [MODEL], model_mapping: { [MODEL]: PROFILE }, ...input });
  const invokes = () => sim.requests.filter((request) => request.path.startsWith('/model/'));

  beforeEach(async () => {
    e2e = await startE2eRelay({ env: { RELAY_UNPRICED_MODELS: 'refuse' } });
    sim = await e2e.startSim({ acceptedKeys: [ACCESS_KEY, API_KEY, SESSION_KEY] });
  });
  afterEach(() => e2e.close());

  it.each([
    ['a SigV4-signed access key', ACCESS_KEY, /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/us-east-1\/bedrock\/aws4_request, /],
    ['a Bedrock API key', API_KEY, new RegExp(`^Bearer ${API_KEY.replace(/[+/=]/g, '\\$&')}$`)],
  ])('%s: Chat Completions and Messages, streamed and not, each with a priced usage row', async (_name, key, authorization) => {
    await addBedrock([key]);
    const openai = e2e.client();
    const anthropic = anthropicClient(e2e);
    const messages = [{ role: 'user' as const, content: 'Hello from the relay' }];

    const chat = await openai.chat.completions.create({ model: MODEL, messages, max_tokens: 64 }).withResponse();
    expect(chat.data.choices[0]?.message.content).toBe('You said: Hello from the relay');
    expect(chat.data.model).toBe(MODEL);

    const streamed = await openai.chat.completions.create({ model: MODEL, messages, max_tokens: 64, stream: true, stream_options: { include_usage: true } }).withResponse();
    let text = '';
    let usage: number | undefined;
    for await (const chunk of streamed.data) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage?.total_tokens ?? usage;
    }
    expect(text).toBe('You said: Hello from the relay');
    expect(usage).toBeGreaterThan(0);

    const message = await anthropic.messages.create({ model: MODEL, max_tokens: 64, messages }).withResponse();
    expect(message.data.content).toEqual([{ type: 'text', text: 'You said: Hello from the relay' }]);
    expect(message.data.model).toBe(MODEL);

    const events = await anthropic.messages.create({ model: MODEL, max_tokens: 64, messages, stream: true }).withResponse();
    const types: string[] = [];
    let streamedText = '';
    for await (const event of events.data) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') streamedText += event.delta.text;
    }
    expect(streamedText).toBe('You said: Hello from the relay');
    expect(types[0]).toBe('message_start');
    expect(types.at(-1)).toBe('message_stop');

    // The simulator answered only what it could verify (it refuses a bad signature or key).
    expect(invokes().map((request) => request.path)).toEqual([invokePath(PROFILE), invokePath(PROFILE, true), invokePath(PROFILE), invokePath(PROFILE, true)]);
    for (const request of invokes()) expect(String(request.headers['authorization'])).toMatch(authorization);

    const ids = [chat.response, streamed.response, message.response, events.response].map((response) => response.headers.get('x-request-id'));
    const rows = await usageRowsFor(e2e, ids);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 200, requestedModel: MODEL, upstreamModel: PROFILE, usageEstimated: false });
      expect(row?.promptTokens).toBeGreaterThan(0);
      expect(row?.completionTokens).toBeGreaterThan(0);
      expect(row?.cost).toBeGreaterThan(0);
    }
    expect(rows.map((row) => row?.stream)).toEqual([false, true, false, true]);
  });

  it('a wrong secret: the simulator refuses the signature, the key is disabled and the next key answers; /api/channels shows no secret', async () => {
    const channel = await addBedrock([WRONG_SECRET, ACCESS_KEY]);
    const hello = { model: MODEL, max_tokens: 32, messages: [{ role: 'user', content: 'Hello there' }] };

    expect((await e2e.postChat(hello)).status).toBe(200);
    expect((await e2e.postChat(hello)).status).toBe(200);

    // One refusal (InvalidSignatureException, 403), then only the good key.
    expect(invokes()).toHaveLength(3);
    const { json, text } = await admin('/api/channels');
    const shown = (json as { data: Channel[] }).data.find((listed) => listed.id === channel.id);
    expect(shown?.key_status).toEqual([
      { index: 0, hint: 'AWS access key AKIA...MPLE', status: 'disabled', reason: expect.stringContaining('upstream_auth_failed'), changed_at: expect.any(String) },
      { index: 1, hint: 'AWS access key AKIA...MPLE', status: 'active', reason: null, changed_at: null },
    ]);
    expect(text).not.toContain('wJalrXUtnFEMI');
    expect(text).not.toContain('not-the-secret-at-all');
  });

  it('a wrong secret on the only key of one channel: another channel answers the request', async () => {
    const bad = await addBedrock([WRONG_SECRET], { name: 'bedrock bad', priority: 10 });
    await addBedrock([API_KEY], { name: 'bedrock good', priority: 0 });
    const answer = await e2e.postChat({ model: MODEL, max_tokens: 32, messages: [{ role: 'user', content: 'Hello there' }] });
    expect(answer.status).toBe(200);
    expect(invokes().map((request) => String(request.headers['authorization']).split(' ')[0])).toEqual(['AWS4-HMAC-SHA256', 'Bearer']);
    const { json } = await admin(`/api/channels/${bad.id}`);
    expect(json).toMatchObject({ has_active_key: false, key_status: [{ status: 'disabled' }] });
  });

  it('a Claude 4 foundation id without an inference profile: the caller is told to map it to one', async () => {
    await addBedrock([ACCESS_KEY], { model_mapping: { [MODEL]: FOUNDATION } });
    const refused = await e2e.postChat({ model: MODEL, max_tokens: 32, messages: [{ role: 'user', content: 'Hello there' }] });
    expect(refused.status).toBe(400);
    const { error } = (await refused.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('inference_profile_required');
    expect(error.message).toContain('on-demand throughput');
    expect(error.message).toContain(`'us.${FOUNDATION}'`);
    expect(error.message).toContain('model mapping');
    // The key was not blamed.
    const { json } = await admin('/api/channels');
    expect((json as { data: Channel[] }).data[0]?.key_status[0]?.status).toBe('active');
  });

  it('/v1/messages/count_tokens is counted by Bedrock (CountTokens on the foundation model)', async () => {
    await addBedrock([ACCESS_KEY]);
    const counted = await anthropicClient(e2e).messages.countTokens({ model: MODEL, messages: [{ role: 'user', content: 'How many tokens is this?' }] });
    expect(counted.input_tokens).toBeGreaterThan(0);
    const [call] = sim.requests.filter((request) => request.path.endsWith('/count-tokens'));
    expect(call?.path).toBe(`/model/${encodeURIComponent(FOUNDATION)}/count-tokens`);
    expect(String(call?.headers['authorization'])).toMatch(/^AWS4-HMAC-SHA256 /);
    // The same prompt, asked for real, reports as many input tokens.
    const message = await anthropicClient(e2e).messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'How many tokens is this?' }] });
    expect(message.usage.input_tokens).toBe(counted.input_tokens);
  });

  it('the channel test calls InvokeModel signed; model sync lists what the control plane serves on demand or through profiles', async () => {
    const channel = await addBedrock([ACCESS_KEY]);
    const tested = await admin(`/api/channels/${channel.id}/test`, { method: 'POST', body: '{}' });
    expect(tested.status).toBe(200);
    expect(tested.json).toMatchObject({ ok: true, model: MODEL, status: 200 });
    expect(invokes().map((request) => request.path)).toEqual([invokePath(PROFILE)]);

    const synced = await admin(`/api/channels/${channel.id}/models/sync`, { method: 'POST' });
    expect(synced.status).toBe(200);
    const ids = (synced.json as { models: Array<{ id: string }> }).models.map((model) => model.id);
    expect(ids).toContain(FOUNDATION);
    expect(ids).toContain('anthropic.claude-3-haiku-20240307-v1:0');
    expect(ids).not.toContain('anthropic.claude-3-haiku-20240307-v1:0:48k');
    expect(ids).not.toContain('amazon.titan-embed-text-v2:0');
    const listCall = sim.requests.find((request) => request.path === '/foundation-models');
    expect(String(listCall?.headers['authorization'])).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\//);
  });

  it('tools through Chat Completions: parallel calls streamed and not, from Claude tool_use blocks in the event stream', async () => {
    await addBedrock([ACCESS_KEY]);
    const openai = e2e.client();
    const messages = [{ role: 'user' as const, content: askForBoth }];
    const whole = await openai.chat.completions.create({ model: MODEL, messages, tools: weatherTools, max_tokens: 256 });
    expect(whole.choices[0]?.finish_reason).toBe('tool_calls');
    expect(whole.choices[0]?.message.tool_calls?.map((call) => (call.type === 'function' ? call.function.name : call.type)).sort()).toEqual(['get_time', 'get_weather']);
    const chunks = await collect(await openai.chat.completions.create({ model: MODEL, messages, tools: weatherTools, max_tokens: 256, stream: true }));
    const streamed = reassembleToolCalls(chunks);
    expect(streamed.map((call) => call.name).sort()).toEqual(['get_time', 'get_weather']);
    for (const call of streamed) expect(() => JSON.parse(call.arguments)).not.toThrow();
    expect(chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason).filter(Boolean))).toEqual(['tool_calls']);
    // Bedrock's body: Anthropic's tools, no model, no stream (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html).
    for (const request of invokes()) {
      expect(request.body).toMatchObject({ anthropic_version: 'bedrock-2023-05-31', tools: expect.any(Array) });
      expect(request.body).not.toHaveProperty('model');
      expect(request.body).not.toHaveProperty('stream');
    }
  });

  it("a throttlingException in the middle of Bedrock's event stream: the caller's stream ends with one error event", async () => {
    await addBedrock([ACCESS_KEY]);
    sim.failNext({ kind: 'stream-error' });
    const raw = await readRawStream(await e2e.postChat({ model: MODEL, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Tell me a long story' }] }));
    expect(raw.status).toBe(200);
    const errors = raw.events.filter((event) => 'error' in event);
    expect(errors).toHaveLength(1);
    expect(raw.events.at(-1)).toBe(errors[0]);
    expect(raw.data).not.toContain('[DONE]');
  });

  it('Messages passthrough keeps thinking and its signature through InvokeModel, the betas Bedrock takes moved into the body, the others left out', async () => {
    await addBedrock([ACCESS_KEY]);
    const anthropic = anthropicClient(e2e);
    const message = await anthropic.messages.create(
      { model: MODEL, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'Think, then say hi' }] },
      { headers: { 'anthropic-beta': 'files-api-2025-04-14,interleaved-thinking-2025-05-14' } },
    );
    expect(message.content[0]).toMatchObject({ type: 'thinking', signature: expect.any(String) });
    // Bedrock takes betas in the body's anthropic_beta (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html).
    expect(invokes()[0]?.body).toMatchObject({ anthropic_beta: ['interleaved-thinking-2025-05-14'], thinking: { type: 'enabled', budget_tokens: 1024 } });
  });

  it('temporary credentials (session token), a profile ARN as the mapped id, and a prompt large enough to be sent in slices: all signed right', async () => {
    const arn = `arn:aws:bedrock:us-east-1:123456789012:inference-profile/${PROFILE}`;
    await addBedrock([SESSION_KEY], { model_mapping: { [MODEL]: arn } });
    const long = `Hello ${'and more '.repeat(120_000)}`;
    const answer = await e2e.postChat({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: long }] });
    expect(answer.status).toBe(200);
    const streamed = await e2e.postChat({ model: MODEL, max_tokens: 8, stream: true, messages: [{ role: 'user', content: 'Hello there' }] });
    expect(streamed.status).toBe(200);
    await streamed.text();
    expect(invokes().map((request) => request.path)).toEqual([invokePath(arn), invokePath(arn, true)]);
    for (const request of invokes()) expect(request.headers['x-amz-security-token']).toBe('IQoJb3JpZ2luX2VjEXAMPLESESSIONTOKEN');
  });

  it('prompt caching through Messages: cache writes then reads, in the answer and in the usage rows, streamed and not', async () => {
    await addBedrock([ACCESS_KEY]);
    const anthropic = anthropicClient(e2e);
    const system = [{ type: 'text' as const, text: `You are terse. ${'Context line. '.repeat(200)}`, cache_control: { type: 'ephemeral' as const } }];
    const ask = (content: string) => ({ model: MODEL, max_tokens: 32, system, messages: [{ role: 'user' as const, content }] });

    const written = await anthropic.messages.create(ask('first')).withResponse();
    expect(written.data.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    const read = await anthropic.messages.create(ask('second')).withResponse();
    expect(read.data.usage.cache_read_input_tokens).toBe(written.data.usage.cache_creation_input_tokens);
    const stream = await anthropic.messages.create({ ...ask('third'), stream: true }).withResponse();
    let streamedRead = 0;
    for await (const event of stream.data) if (event.type === 'message_start') streamedRead = event.message.usage.cache_read_input_tokens ?? 0;
    expect(streamedRead).toBe(written.data.usage.cache_creation_input_tokens);

    const rows = await usageRowsFor(e2e, [written, read, stream].map((call) => call.response.headers.get('x-request-id')));
    expect(rows.map((row) => [row?.cacheWriteTokens, row?.cacheReadTokens])).toEqual([
      [written.data.usage.cache_creation_input_tokens, 0],
      [0, streamedRead],
      [0, streamedRead],
    ]);
    // A read costs less than a write of the same tokens.
    expect(rows[1]?.cost).toBeLessThan(rows[0]?.cost ?? 0);
  });
});
