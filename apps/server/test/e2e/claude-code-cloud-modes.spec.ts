import { AwsEventStreamDecoder, type AwsStreamEvent } from '@chat-relay/wire';
import type { UpstreamSim } from '@chat-relay/upstream-sim';
import { bedrockModelName, parseVertexAnthropicTarget } from '@chat-relay/contract';
import { readFixture } from '../testing/fixtures';
import { agentHeaders, agentUrl, type RecordedAgentRequest } from './agent-fixtures';
import { namedEventsOf } from './anthropic-e2e';
import { SIM_KEY, startE2eRelay, type E2eRelay } from './e2e-relay';
import { startRecordingUpstream } from './recording-upstream';

/**
 * Claude Code 2.1.332 in its Bedrock and Vertex modes (CLAUDE_CODE_USE_BEDROCK / _VERTEX, the
 * cloud's auth skipped, the relay's token as `Authorization: Bearer`), its recorded requests
 * replayed against a relay whose `anthropic` channel is the simulator: answered as each cloud
 * answers (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html,
 * https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude),
 * through the same pipeline as /v1/messages, with a usage row and a cost.
 */
const recorded = (path: string): RecordedAgentRequest => JSON.parse(readFixture(path)) as RecordedAgentRequest;
const bedrock = recorded('anthropic-inbound/claude-code-bedrock/claude-code-2.1.332-request.json');
const bedrockToolResult = recorded('anthropic-inbound/claude-code-bedrock/claude-code-2.1.332-tool-result-request.json');
const vertex = recorded('anthropic-inbound/claude-code-vertex/claude-code-2.1.332-request.json');
const vertexToolResult = recorded('anthropic-inbound/claude-code-vertex/claude-code-2.1.332-tool-result-request.json');

/** The name Claude Code's ids come to (`us.anthropic.claude-opus-5-5`, `claude-opus-5-5`), and what the channel sends for it. */
const PUBLIC_MODEL = 'claude-opus-5-5';
const UPSTREAM_MODEL = 'claude-opus-4-6';

/** A replayed request: the recorded path, headers (the token put back as Bearer) and body. */
function replay(e2e: E2eRelay, request: RecordedAgentRequest, change: { path?: string; body?: Record<string, unknown>; token?: string | null } = {}): Promise<Response> {
  const headers = agentHeaders(request, change.token ?? e2e.token);
  if (change.token === null) delete headers['authorization'];
  return fetch(agentUrl(e2e.url, { ...request, path: change.path ?? request.path }), { method: 'POST', headers, body: JSON.stringify(change.body ?? request.body) });
}

/** The Anthropic events inside a Bedrock event stream's `chunk` events, and the stream's messages. */
async function bedrockEvents(response: Response): Promise<{ messages: AwsStreamEvent[]; events: Array<Record<string, unknown>> }> {
  const messages = new AwsEventStreamDecoder().push(new Uint8Array(await response.arrayBuffer()));
  const events = messages
    .filter((message) => message.event === 'chunk' && message.exception === undefined)
    .map((message) => JSON.parse(Buffer.from((JSON.parse(message.data) as { bytes: string }).bytes, 'base64').toString('utf8')) as Record<string, unknown>);
  return { messages, events };
}

/** The content blocks a stream of Anthropic events built (thinking with its signature, text, tool_use with its input). */
function answerOf(events: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  const blocks: Array<Record<string, unknown>> = [];
  const json: string[] = [];
  for (const event of events) {
    const index = event['index'] as number;
    if (event['type'] === 'content_block_start') {
      blocks[index] = { ...(event['content_block'] as Record<string, unknown>) };
      json[index] = '';
    } else if (event['type'] === 'content_block_delta') {
      const delta = event['delta'] as Record<string, string>;
      const block = blocks[index] as Record<string, string>;
      if (delta['type'] === 'text_delta') block['text'] = `${block['text'] ?? ''}${delta['text'] ?? ''}`;
      else if (delta['type'] === 'thinking_delta') block['thinking'] = `${block['thinking'] ?? ''}${delta['thinking'] ?? ''}`;
      else if (delta['type'] === 'signature_delta') block['signature'] = delta['signature'] ?? '';
      else if (delta['type'] === 'input_json_delta') json[index] = `${json[index] ?? ''}${delta['partial_json'] ?? ''}`;
    } else if (event['type'] === 'content_block_stop' && blocks[index]?.['type'] === 'tool_use') {
      blocks[index] = { ...blocks[index], input: JSON.parse(json[index] || '{}') as unknown };
    }
  }
  return blocks;
}

/** A recorded tool-result turn with `answer` as its assistant turn, and its tool results answering that turn's tool calls. */
function withAnswer(request: RecordedAgentRequest, answer: Array<Record<string, unknown>>): Record<string, unknown> {
  const body = request.body ?? {};
  const messages = [...(body['messages'] as Array<Record<string, unknown>>)];
  const calls = answer.filter((block) => block['type'] === 'tool_use');
  expect(calls.length).toBeGreaterThan(0);
  messages[messages.length - 2] = { role: 'assistant', content: answer };
  messages[messages.length - 1] = { role: 'user', content: calls.map((call) => ({ type: 'tool_result', tool_use_id: call['id'], content: 'hi', is_error: false })) };
  return { ...body, messages };
}

/** The body as the relay sends it on: `role: "system"` turns at the end of `system` (cloud-messages.route.ts). */
function systemTurnsFolded(body: Record<string, unknown>): Record<string, unknown> {
  const messages = body['messages'] as Array<{ role: string; content: unknown }>;
  const blocks = (content: unknown) => (typeof content === 'string' ? [{ type: 'text', text: content }] : (content as unknown[]));
  const system = [...blocks(body['system'] ?? []), ...messages.filter((turn) => turn.role === 'system').flatMap((turn) => blocks(turn.content))];
  return { ...body, system, messages: messages.filter((turn) => turn.role !== 'system') };
}

const simCalls = (sim: UpstreamSim) => sim.requests.filter((request) => request.method === 'POST' && request.path === '/v1/messages');

describe('e2e: Claude Code in its Bedrock and Vertex modes through the relay (issue 31)', () => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;

  beforeEach(async () => {
    e2e = await startE2eRelay();
    sim = await e2e.startSim();
    await e2e.addChannel(sim.anthropicBaseUrl, { type: 'anthropic', models: [PUBLIC_MODEL], model_mapping: { [PUBLIC_MODEL]: UPSTREAM_MODEL } });
  });
  afterEach(() => e2e.close());

  describe('Bedrock mode', () => {
    it('invoke-with-response-stream: AWS event stream of chunk events, each an Anthropic event, the last with invocation metrics', async () => {
      const response = await replay(e2e, bedrock);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
      const { messages, events } = await bedrockEvents(response);
      expect(messages.every((message) => message.event === 'chunk' && message.exception === undefined)).toBe(true);
      expect(events[0]).toMatchObject({ type: 'message_start', message: { model: PUBLIC_MODEL } });
      expect(events.at(-1)?.['type']).toBe('message_stop');
      expect(answerOf(events).length).toBeGreaterThan(0);

      const [row] = await e2e.usageRows(1);
      expect(row).toMatchObject({ status: 200, requestedModel: PUBLIC_MODEL, upstreamModel: UPSTREAM_MODEL, stream: true, endpoint: 'chat', errorCode: null });
      expect(row?.cost).toBeGreaterThan(0);
      // Bedrock's own count of the stream, as its SDKs read it from the last chunk.
      const cached = (row?.cacheReadTokens ?? 0) + (row?.cacheWriteTokens ?? 0);
      expect(events.at(-1)?.['amazon-bedrock-invocationMetrics']).toEqual({
        inputTokenCount: (row?.promptTokens ?? 0) - cached,
        outputTokenCount: row?.completionTokens,
        invocationLatency: expect.any(Number),
        firstByteLatency: expect.any(Number),
      });
    });

    it('the upstream gets a Messages request: the path’s model mapped, no anthropic_version/anthropic_beta, the body’s betas joined to the header’s', async () => {
      await replay(e2e, bedrock).then((response) => response.arrayBuffer());
      const [call] = simCalls(sim);
      const body = call?.body as Record<string, unknown>;
      const { anthropic_version: _version, anthropic_beta: bodyBetas, ...rest } = bedrock.body ?? {};
      expect(body).toEqual(systemTurnsFolded({ ...rest, model: UPSTREAM_MODEL, stream: true }));
      const headerBetas = bedrock.headers['anthropic-beta']?.split(',') ?? [];
      expect(String(call?.headers['anthropic-beta']).split(',').sort()).toEqual([...new Set([...headerBetas, ...(bodyBetas as string[])])].sort());
      expect(call?.headers['x-api-key']).toBe(SIM_KEY);
      expect(JSON.stringify(call?.headers)).not.toContain(e2e.token);
    });

    it('the tool round trip: the answer decoded from the event stream goes back, signed thinking and all, and is taken', async () => {
      const first = await bedrockEvents(await replay(e2e, bedrock));
      const body = withAnswer(bedrockToolResult, answerOf(first.events));
      const response = await replay(e2e, bedrockToolResult, { body });
      expect(response.status).toBe(200);
      const { events } = await bedrockEvents(response);
      expect(events.at(-1)?.['type']).toBe('message_stop');
      const messages = (simCalls(sim)[1]?.body as { messages: unknown[] }).messages;
      expect(messages.slice(-2)).toEqual((body['messages'] as unknown[]).slice(-2));
      const rows = await e2e.usageRows(2);
      expect(rows.map((row) => [row.status, row.cost > 0])).toEqual([
        [200, true],
        [200, true],
      ]);
    });

    it('invoke: the Message as JSON', async () => {
      const response = await replay(e2e, bedrock, { path: '/model/us.anthropic.claude-opus-5-5/invoke' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toMatchObject({ type: 'message', role: 'assistant', model: PUBLIC_MODEL });
      expect((simCalls(sim)[0]?.body as Record<string, unknown>)['stream']).toBe(false);
      const [row] = await e2e.usageRows(1);
      expect(row).toMatchObject({ status: 200, stream: false, requestedModel: PUBLIC_MODEL });
      expect(row?.cost).toBeGreaterThan(0);
    });

    it('the versioned id Bedrock’s docs use (anthropic.…-v1:0, URL-encoded by the AWS SDK) is the same model', async () => {
      const response = await replay(e2e, bedrock, { path: '/model/anthropic.claude-opus-5-5-v1%3A0/invoke' });
      expect(response.status).toBe(200);
      expect((simCalls(sim)[0]?.body as Record<string, unknown>)['model']).toBe(UPSTREAM_MODEL);
    });

    it('the control-plane call Claude Code makes first (GET /inference-profiles, no credentials) is a 404 it tolerates', async () => {
      const probe = recorded('anthropic-inbound/claude-code-bedrock/claude-code-2.1.332-inference-profiles-request.json');
      const response = await fetch(agentUrl(e2e.url, probe), { headers: agentHeaders(probe, e2e.token) });
      expect(response.status).toBe(404);
    });

    it('errors in Bedrock’s shape: {message} and x-amzn-errortype', async () => {
      const refused = await replay(e2e, bedrock, { token: 'sk-not-a-relay-token' });
      expect(refused.headers.get('x-amzn-errortype')).toBe('AccessDeniedException');
      expect(await refused.json()).toEqual({ message: expect.any(String) });
      const unknown = await replay(e2e, bedrock, { path: '/model/us.anthropic.claude-unknown-9/invoke' });
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('x-amzn-errortype')).toBe('ResourceNotFoundException');
      expect(await unknown.json()).toEqual({ message: expect.any(String) });
    });

    it('without the relay’s token: 401, nothing sent upstream', async () => {
      expect((await replay(e2e, bedrock, { token: null })).status).toBe(401);
      expect((await replay(e2e, bedrock, { token: 'sk-not-a-relay-token' })).status).toBe(401);
      expect(simCalls(sim)).toHaveLength(0);
    });
  });

  describe('Vertex mode', () => {
    it('streamRawPredict: exactly the SSE /v1/messages answers', async () => {
      const response = await replay(e2e, vertex);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events = namedEventsOf(await response.text());
      expect(events[0]?.event).toBe('message_start');
      expect(events.at(-1)?.event).toBe('message_stop');

      const body = simCalls(sim)[0]?.body as Record<string, unknown>;
      const { anthropic_version: _version, ...rest } = vertex.body ?? {};
      expect(body).toEqual(systemTurnsFolded({ ...rest, model: UPSTREAM_MODEL, stream: true }));
      expect(simCalls(sim)[0]?.headers['anthropic-beta']).toBe(vertex.headers['anthropic-beta']);
      const [row] = await e2e.usageRows(1);
      expect(row).toMatchObject({ status: 200, requestedModel: PUBLIC_MODEL, upstreamModel: UPSTREAM_MODEL, stream: true });
      expect(row?.cost).toBeGreaterThan(0);
    });

    it('the tool round trip: the streamed answer goes back and is taken', async () => {
      const first = namedEventsOf(await (await replay(e2e, vertex)).text()).map((event) => JSON.parse(event.data) as Record<string, unknown>);
      const response = await replay(e2e, vertexToolResult, { body: withAnswer(vertexToolResult, answerOf(first)) });
      expect(response.status).toBe(200);
      expect(namedEventsOf(await response.text()).at(-1)?.event).toBe('message_stop');
    });

    it('rawPredict under a base URL without /v1, with an @-dated model id: a Message', async () => {
      const dated = `${PUBLIC_MODEL}-20260101`;
      await e2e.addChannel(sim.anthropicBaseUrl, { type: 'anthropic', models: [dated], model_mapping: { [dated]: UPSTREAM_MODEL } });
      const path = `/projects/p/locations/global/publishers/anthropic/models/${PUBLIC_MODEL}@20260101:rawPredict`;
      const response = await replay(e2e, vertex, { path });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ type: 'message', model: dated });
      expect((simCalls(sim)[0]?.body as Record<string, unknown>)['stream']).toBe(false);
    });

    it('a method the relay does not serve is refused, nothing sent upstream', async () => {
      const response = await replay(e2e, vertex, { path: vertex.path.replace(':streamRawPredict', ':predict') });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(simCalls(sim)).toHaveLength(0);
    });
  });
});

describe('e2e: a Bedrock stream that fails after its start (issue 31)', () => {
  it('ends with an exception message, as Bedrock’s ResponseStream does, and a failed usage row', async () => {
    const cut = 'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-4-6","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}\n\n';
    const upstream = await startRecordingUpstream(() => ({ contentType: 'text/event-stream', body: cut }));
    const e2e = await startE2eRelay();
    try {
      await e2e.addChannel(upstream.baseUrl, { type: 'anthropic', models: [PUBLIC_MODEL], model_mapping: { [PUBLIC_MODEL]: UPSTREAM_MODEL } });
      const response = await replay(e2e, bedrock);
      expect(response.status).toBe(200);
      const { messages, events } = await bedrockEvents(response);
      expect(events.map((event) => event['type'])).toEqual(['message_start']);
      const last = messages.at(-1);
      expect(last).toMatchObject({ event: 'modelStreamErrorException', exception: true });
      expect(JSON.parse(last?.data ?? '{}')).toEqual({ message: expect.stringContaining('ended the stream') });
      const [row] = await e2e.usageRows(1);
      expect(row?.errorCode).toBe('stream_truncated');
    } finally {
      await e2e.close();
      await upstream.close();
    }
  });
});

describe('the relay’s model name of a cloud model id', () => {
  it.each([
    ['us.anthropic.claude-opus-5-5', 'claude-opus-5-5'],
    ['global.anthropic.claude-sonnet-4-5-20250929-v1:0', 'claude-sonnet-4-5-20250929'],
    ['anthropic.claude-3-5-haiku-20241022-v1:0', 'claude-3-5-haiku-20241022'],
    ['eu.anthropic.claude-haiku-4-5-20251001-v1', 'claude-haiku-4-5-20251001'],
    // An application inference profile names no model: kept for a model mapping to name.
    ['arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3', 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3'],
    ['meta.llama3-70b-instruct-v1:0', 'meta.llama3-70b-instruct-v1:0'],
  ])('Bedrock %s → %s', (id, name) => expect(bedrockModelName(id)).toBe(name));

  it.each([
    ['claude-sonnet-4-5@20250929:rawPredict', { model: 'claude-sonnet-4-5-20250929', method: 'rawPredict' }],
    ['claude-opus-5-5:streamRawPredict', { model: 'claude-opus-5-5', method: 'streamRawPredict' }],
    ['claude-opus-5-5:predict', undefined],
  ])('Vertex %s → %j', (target, parsed) => expect(parseVertexAnthropicTarget(target)).toEqual(parsed));
});
