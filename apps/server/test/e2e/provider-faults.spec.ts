import type { UpstreamSim } from '@chat-relay/upstream-sim';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { expectSpecValid } from './openai-spec';
import { readRawStream } from './sse-events';
import { weatherTools } from './weather-tools';

const providers = [
  { type: 'anthropic' as const, family: 'claude-sonnet-4-5', baseUrl: (sim: UpstreamSim) => sim.anthropicBaseUrl, overloaded: 529 },
  { type: 'gemini' as const, family: 'gemini-2.5-flash', baseUrl: (sim: UpstreamSim) => sim.geminiBaseUrl, overloaded: 503 },
];

describe.each(providers)('e2e: $type channel failures and edge cases', (provider) => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;
  const user = (content: string) => [{ role: 'user', content }];

  beforeEach(async () => {
    e2e = await startE2eRelay();
    sim = await e2e.startSim();
    await e2e.addChannel(provider.baseUrl(sim), { type: provider.type, models: [provider.family] });
  });
  afterEach(() => e2e.close());

  it('an overloaded upstream is retried on another channel of another type', async () => {
    const backup = await e2e.startSim();
    await e2e.addChannel(backup.baseUrl, { type: 'openai', models: [provider.family], priority: -1 });
    sim.failNext({ kind: 'status', status: provider.overloaded });
    const response = await e2e.postChat({ model: provider.family, messages: user('hello') });
    const body = (await response.json()) as any;
    expect(response.status).toBe(200);
    expect(body.choices[0].message.content).toBe('You said: hello');
    expect(backup.requests).toHaveLength(1);
    const [row] = (await e2e.usageRows(1)).slice(-1);
    expect(row?.attempts).toBe(2);
  });

  it('overloaded with nowhere else to go: 502 upstream_error in the OpenAI shape', async () => {
    sim.failNext({ kind: 'status', status: provider.overloaded }, 5);
    const response = await e2e.postChat({ model: provider.family, messages: user('hello') });
    const body = (await response.json()) as any;
    expect(response.status).toBe(502);
    expect(body.error.type).toBe('upstream_error');
    expectSpecValid('ErrorResponse', body);
  });

  it('an upstream 400 keeps its status and message', async () => {
    sim.failNext({ kind: 'status', status: 400 });
    const response = await e2e.postChat({ model: provider.family, messages: user('hello') });
    const body = (await response.json()) as any;
    expect(response.status).toBe(400);
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message.length).toBeGreaterThan(0);
    expectSpecValid('ErrorResponse', body);
  });

  it('a mid-stream upstream error becomes one error event, then the end', async () => {
    sim.failNext({ kind: 'stream-error' });
    const stream = await readRawStream(
      await e2e.postChat({ model: provider.family, messages: user('one two three four five six seven'), stream: true }),
    );
    expect(stream.status).toBe(200);
    expect(stream.data).not.toContain('[DONE]');
    const errors = stream.events.filter((event) => 'error' in event);
    expect(errors).toHaveLength(1);
    expect(stream.events.at(-1)).toBe(errors[0]);
    expectSpecValid('ErrorResponse', errors[0]);
  });

  it('a parameter the provider cannot express is a 400 naming it, and nothing is sent', async () => {
    const response = await e2e.postChat({ model: provider.family, messages: user('hi'), logit_bias: { '50256': -100 } });
    const body = (await response.json()) as any;
    expect(response.status).toBe(400);
    expect(body.error.param).toBe('logit_bias');
    expect(sim.requests).toHaveLength(0);
  });

  it('text before the tool calls keeps tool indexes 0 and 1 (not the provider block positions)', async () => {
    const stream = await readRawStream(
      await e2e.postChat({
        model: provider.family,
        messages: user('Please get weather and get time for Paris. [sim:preamble=on]'),
        tools: weatherTools,
        stream: true,
      }),
    );
    const deltas = stream.events.flatMap((event) =>
      ((event['choices'] as Array<{ delta: { content?: string; tool_calls?: Array<{ index: number; id?: string }> } }>) ?? []).map(
        (choice) => choice.delta,
      ),
    );
    expect(deltas.map((delta) => delta.content ?? '').join('')).toContain('Let me call');
    const firstDeltaIndexes = deltas.flatMap((delta) => (delta.tool_calls ?? []).filter((call) => call.id).map((call) => call.index));
    expect(firstDeltaIndexes).toEqual([0, 1]);
    for (const event of stream.events) expectSpecValid('CreateChatCompletionStreamResponse', event);
  });
});
