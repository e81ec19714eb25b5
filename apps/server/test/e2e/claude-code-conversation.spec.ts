import Anthropic from '@anthropic-ai/sdk';
import { readFixture } from '../testing/fixtures';
import {
  anthropicClient,
  anthropicError,
  ANTHROPIC_VERSION,
  CLAUDE,
  namedEventsOf,
  geminiKind,
  openAiKind,
  startAnthropicRelay,
  type AnthropicE2e,
} from './anthropic-e2e';
import { SIM_KEY, startE2eRelay, type E2eRelay } from './e2e-relay';
import { readStreamRecording } from './recorded-traffic';
import { startRecordingUpstream, type RecordingUpstream } from './recording-upstream';

/** Claude Code's request body as recorded (system blocks with cache_control, 24 tools, thinking, metadata, stream). */
const CLAUDE_CODE_REQUEST = 'anthropic-inbound/claude-code-request.json';
const claudeCodeBytes = Buffer.from(readFixture(CLAUDE_CODE_REQUEST), 'utf8');
const claudeCodeRequest = JSON.parse(claudeCodeBytes.toString('utf8')) as Record<string, unknown> & { model: string };

/** The betas Claude Code sends with it. */
const CLAUDE_CODE_BETAS = 'claude-code-20250219,interleaved-thinking-2025-05-14';

/** What the upstream streams back: a recorded Anthropic answer (text, then a tool_use). */
const RECORDED_ANSWER = 'anthropic/stream-text-then-tool-use.sse';

/** Claude Code's call: its bytes as they are, its key in x-api-key, its version and betas. */
const postClaudeCode = (e2e: E2eRelay): Promise<Response> =>
  fetch(`${e2e.url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: {
      'x-api-key': e2e.token,
      'anthropic-version': ANTHROPIC_VERSION,
      'anthropic-beta': CLAUDE_CODE_BETAS,
      'content-type': 'application/json',
    },
    body: claudeCodeBytes,
  });

describe('e2e: a Claude Code request through an anthropic channel (passthrough)', () => {
  let e2e: E2eRelay;
  let upstream: RecordingUpstream;

  beforeEach(async () => {
    e2e = await startE2eRelay();
    upstream = await startRecordingUpstream(() => ({ contentType: 'text/event-stream', body: readStreamRecording(RECORDED_ANSWER) }));
  });
  afterEach(async () => {
    await e2e.close();
    await upstream.close();
  });

  /** Asserts the caller got the recorded events, only message_start's model being the caller's name. */
  async function expectRecordedEvents(response: Response): Promise<void> {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const received = namedEventsOf(await response.text());
    const recorded = namedEventsOf(readStreamRecording(RECORDED_ANSWER));
    expect(received.map((event) => event.event)).toEqual(recorded.map((event) => event.event));
    expect(received.slice(1)).toEqual(recorded.slice(1));
    const start = JSON.parse(recorded[0]?.data ?? '') as { message: Record<string, unknown> };
    expect(JSON.parse(received[0]?.data ?? '')).toEqual({ ...start, message: { ...start.message, model: claudeCodeRequest.model } });
  }

  it('the upstream receives the caller’s exact bytes, anthropic-version and anthropic-beta as sent, its own key only', async () => {
    await e2e.addChannel(upstream.baseUrl, { type: 'anthropic', models: [claudeCodeRequest.model] });
    await expectRecordedEvents(await postClaudeCode(e2e));

    expect(upstream.calls).toHaveLength(1);
    const [call] = upstream.calls;
    expect(call?.method).toBe('POST');
    expect(call?.url).toBe('/v1/messages');
    expect(call?.body.equals(claudeCodeBytes)).toBe(true);
    expect(call?.headers['anthropic-version']).toBe(ANTHROPIC_VERSION);
    expect(call?.headers['anthropic-beta']).toBe(CLAUDE_CODE_BETAS);
    expect(call?.headers['x-api-key']).toBe(SIM_KEY);
    expect(call?.headers['authorization']).toBeUndefined();
    expect(JSON.stringify(call?.headers)).not.toContain(e2e.token);
  });

  it('with the model mapped, the body differs from the caller’s in the model alone', async () => {
    const upstreamModel = 'claude-sonnet-4-5-20250929';
    await e2e.addChannel(upstream.baseUrl, {
      type: 'anthropic',
      models: [claudeCodeRequest.model],
      model_mapping: { [claudeCodeRequest.model]: upstreamModel },
    });
    await expectRecordedEvents(await postClaudeCode(e2e));

    const received = upstream.calls[0]?.body.toString('utf8') ?? '';
    expect(JSON.parse(received)).toEqual({ ...claudeCodeRequest, model: upstreamModel });
    // Byte for byte the caller's, the model's value alone swapped: whitespace, key order, numbers as sent.
    const sent = claudeCodeBytes.toString('utf8');
    const modelValue = JSON.stringify(claudeCodeRequest.model);
    const at = sent.lastIndexOf(`"model":${modelValue}`) >= 0 ? sent.lastIndexOf(`"model":${modelValue}`) : sent.lastIndexOf(`"model": ${modelValue}`);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(received).toBe(sent.slice(0, at) + sent.slice(at).replace(modelValue, JSON.stringify(upstreamModel)));
    expect(upstream.calls[0]?.headers['anthropic-beta']).toBe(CLAUDE_CODE_BETAS);
  });
});

/** A reasoning model behind the OpenAI channel: gpt-4o takes no reasoning_effort, so the relay would leave it out (issue 28). */
const OPENAI_REASONER = 'o3';

describe.each([openAiKind, geminiKind])('e2e: a Claude Code request bridged to a $type channel', (kind) => {
  let e2e: AnthropicE2e;

  beforeEach(async () => {
    e2e = await startAnthropicRelay(kind, kind === openAiKind ? { model_mapping: { [CLAUDE]: OPENAI_REASONER } } : {});
  });
  afterEach(() => e2e.close());

  it('answers a valid Messages stream; the anthropic-beta header is not forwarded', async () => {
    // Under the name this channel serves (the SDK also warns about every call naming the recorded one).
    const request = { ...claudeCodeRequest, model: CLAUDE } as unknown as Anthropic.MessageStreamParams;
    const stream = e2e.anthropic.messages.stream(request, {
      headers: { 'anthropic-beta': CLAUDE_CODE_BETAS },
    });
    const final = await stream.finalMessage();

    expect(final).toMatchObject({ type: 'message', role: 'assistant', model: CLAUDE });
    expect(['tool_use', 'end_turn']).toContain(final.stop_reason);
    expect(final.content.length).toBeGreaterThan(0);
    for (const block of final.content) {
      if (block.type === 'text') expect(block.text).not.toBe('');
      if (block.type === 'tool_use') expect(block.input).toEqual(expect.any(Object));
    }

    const [call] = kind.calls(e2e.sim);
    expect(call).toBeDefined();
    expect(call?.headers['anthropic-beta']).toBeUndefined();
    expect(call?.headers['anthropic-version']).toBeUndefined();
    if (kind === openAiKind) {
      const body = call?.body as { model: string; tools: unknown[]; messages: { role: string }[]; user?: string; stream: boolean };
      expect(body).toMatchObject({ model: OPENAI_REASONER, stream: true, reasoning_effort: 'high' });
      expect(body.tools).toHaveLength((claudeCodeRequest['tools'] as unknown[]).length);
      expect(body.messages[0]?.role).toBe('system');
      expect(body.user).toBe((claudeCodeRequest['metadata'] as { user_id: string }).user_id);
    }
    if (kind === geminiKind) {
      // Every tool declared (SendMessage's `allOf` of two patterns merged), thinking as a budget.
      const body = call?.body as { tools: { functionDeclarations: unknown[] }[]; generationConfig: { thinkingConfig?: { thinkingBudget: number } } };
      expect(body.tools[0]?.functionDeclarations).toHaveLength((claudeCodeRequest['tools'] as unknown[]).length);
      expect(body.generationConfig.thinkingConfig?.thinkingBudget).toBe(24576);
    }
  });
});

describe('e2e: what Claude Code asks before its first message', () => {
  let e2e: AnthropicE2e;

  beforeEach(async () => {
    e2e = await startAnthropicRelay(openAiKind);
  });
  afterEach(() => e2e.close());

  it('HEAD / answers 200 without a key', async () => {
    const response = await fetch(`${e2e.url}/`, { method: 'HEAD' });
    expect(response.status).toBe(200);
  });

  it('GET /v1/models with anthropic-version: Anthropic’s list shape, read by client.models.list()', async () => {
    const models: Anthropic.ModelInfo[] = [];
    for await (const model of e2e.anthropic.models.list()) models.push(model);
    expect(models.map((model) => model.id)).toContain(CLAUDE);
    for (const model of models) {
      expect(model).toEqual({ type: 'model', id: expect.any(String), display_name: expect.any(String), created_at: expect.any(String) });
      expect(Number.isNaN(Date.parse(model.created_at))).toBe(false);
    }

    const raw = await fetch(`${e2e.url}/v1/models`, { headers: { 'x-api-key': e2e.token, 'anthropic-version': ANTHROPIC_VERSION } });
    const page = (await raw.json()) as Record<string, unknown>;
    expect(page).toEqual({ data: expect.any(Array), has_more: false, first_id: expect.any(String), last_id: expect.any(String) });
    // An OpenAI caller (no anthropic-version) still gets OpenAI's shape.
    const openAi = await fetch(`${e2e.url}/v1/models`, { headers: { authorization: `Bearer ${e2e.token}` } });
    expect(await openAi.json()).toMatchObject({
      object: 'list',
      data: expect.arrayContaining([expect.objectContaining({ object: 'model', id: CLAUDE })]),
    });
  });

  it('the SDK pages through the list with limit and after_id, each model once', async () => {
    await e2e.addChannel(e2e.sim.baseUrl, { models: ['claude-a', 'claude-b', 'claude-c'] });
    const ids: string[] = [];
    for await (const model of e2e.anthropic.models.list({ limit: 1 })) ids.push(model.id);

    expect([...ids].sort()).toEqual(['claude-a', 'claude-b', 'claude-c', CLAUDE].sort());
    // One request a page: the SDK followed has_more and last_id to the end.
    expect(e2e.sentHeaders).toHaveLength(4);
  });

  it('GET /v1/models/{id} with anthropic-version: one model, or a not_found_error', async () => {
    expect(await e2e.anthropic.models.retrieve(CLAUDE)).toMatchObject({ type: 'model', id: CLAUDE });
    const missing = await anthropicError(() => anthropicClient(e2e).models.retrieve('claude-no-such-model'));
    expect(missing).toBeInstanceOf(Anthropic.NotFoundError);
    expect(missing.type).toBe('not_found_error');
  });
});
