import type { ChatCompletionRequest } from '@chat-relay/contract';
import { decideAnswer } from '@chat-relay/upstream-sim';
import type OpenAI from 'openai';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { expectSpecValid } from './openai-spec';
import { readRawStream } from './sse-events';
import { collect } from './weather-tools';

/** The usage the simulator reported for the request it recorded (its answers are deterministic). */
function simUsage(recordedBody: unknown) {
  const plan = decideAnswer(recordedBody as ChatCompletionRequest);
  if (plan.kind === 'invalid') throw new Error(plan.message);
  return plan.usage;
}

describe('e2e: usage chunks and the usage log on streams', () => {
  let e2e: E2eRelayWithSim;
  let client: OpenAI;

  beforeEach(async () => {
    e2e = await startRelayWithSim();
    client = e2e.client();
  });
  afterEach(() => e2e.close());

  const messages = [{ role: 'user' as const, content: 'Count the words of this short sentence please.' }];

  it('without stream_options: no usage anywhere, no empty-choices chunk, yet usage was asked upstream and logged', async () => {
    const chunks = await collect(await client.chat.completions.create({ model: 'gpt-4o', messages, stream: true }));

    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expectSpecValid('CreateChatCompletionStreamResponse', JSON.parse(JSON.stringify(chunk)));
      expect(chunk).not.toHaveProperty('usage');
      expect(chunk.choices).toHaveLength(1);
    }
    const upstreamBody = e2e.sim.requests[0]?.body as Record<string, unknown>;
    expect(upstreamBody['stream_options']).toEqual({ include_usage: true });

    const [row] = await e2e.usageRows(1);
    const usage = simUsage(upstreamBody);
    expect(row).toMatchObject({
      stream: true,
      status: 200,
      errorCode: null,
      channelId: e2e.channel.id,
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      usageEstimated: false,
    });
    expect(row?.ttfbMs).toEqual(expect.any(Number));
  });

  it('with include_usage: exactly one last chunk with empty choices carrying the upstream totals', async () => {
    const chunks = await collect(
      await client.chat.completions.create({
        model: 'gpt-4o',
        messages,
        stream: true,
        stream_options: { include_usage: true },
      }),
    );

    for (const chunk of chunks) expectSpecValid('CreateChatCompletionStreamResponse', JSON.parse(JSON.stringify(chunk)));
    const usageChunks = chunks.filter((chunk) => chunk.usage);
    expect(usageChunks).toHaveLength(1);
    const last = chunks[chunks.length - 1]!;
    expect(last.choices).toEqual([]);
    expect(chunks.filter((chunk) => chunk.choices.length === 0)).toEqual([last]);

    const usage = simUsage(e2e.sim.requests[0]?.body);
    expect(last.usage).toMatchObject(usage);
    expect(last.usage!.total_tokens).toBe(last.usage!.prompt_tokens + last.usage!.completion_tokens);

    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({
      stream: true,
      status: 200,
      channelId: e2e.channel.id,
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      usageEstimated: false,
      requestedModel: 'gpt-4o',
      upstreamModel: 'gpt-4o',
      attempts: 1,
    });
    expect(row?.ttfbMs).toBeGreaterThan(0);
  });

  it('the raw stream: data events, the usage chunk before [DONE], and one log row per request', async () => {
    const requests = [false, true, false];
    for (const includeUsage of requests) {
      const response = await e2e.postChat({
        model: 'gpt-4o',
        messages,
        stream: true,
        ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
      });
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const raw = await readRawStream(response);
      expect(raw.data[raw.data.length - 1]).toBe('[DONE]');
      expect(raw.data.filter((data) => data === '[DONE]')).toHaveLength(1);
      const withUsage = raw.events.filter((event) => 'usage' in event && event['usage'] !== null);
      expect(withUsage).toHaveLength(includeUsage ? 1 : 0);
      if (includeUsage) expect(raw.events[raw.events.length - 1]).toMatchObject({ choices: [] });
    }

    const rows = await e2e.usageRows(requests.length);
    expect(rows).toHaveLength(requests.length);
    expect(new Set(rows.map((row) => row.requestId)).size).toBe(requests.length);
    for (const row of rows) {
      expect(row).toMatchObject({ stream: true, status: 200, channelId: e2e.channel.id, usageEstimated: false });
      expect(row.completionTokens).toBeGreaterThan(0);
      expect(row.ttfbMs).toEqual(expect.any(Number));
    }
  });
});
